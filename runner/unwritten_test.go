package runner

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/stretchr/testify/require"
)

func TestWarnUnwritten(t *testing.T) {
	var b strings.Builder
	// 1,000 read pages during the run, 10 of them unwritten: exactly 1 %, no warning.
	before := firmware.Stats{ReadPages: 500, Unmapped: 5}
	require.Equal(t, int64(10), WarnUnwritten(&b, "", firmware.Stats{ReadPages: 1500, Unmapped: 15}, before))
	require.Empty(t, b.String())
	// 11 of 1,000: 1.1 %, warned, naming precondition.fill.
	require.Equal(t, int64(11), WarnUnwritten(&b, "", firmware.Stats{ReadPages: 1500, Unmapped: 16}, before))
	require.Contains(t, b.String(), "warning: 11 of 1000 read pages (1.1 %) had never been written")
	require.Contains(t, b.String(), "precondition.fill")
}
