package progress

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// lockedBuffer is a strings.Builder safe for the logger's goroutine and the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestProgressLog checks the log lines a command writes when standard error is not a
// terminal: periodic lines with the count done, and a last line when it had logged any.
func TestProgressLog(t *testing.T) {
	var buf lockedBuffer
	update, finish := Log(&buf, 4, 5*time.Millisecond)
	update(1)
	require.Eventually(t, func() bool { return strings.Contains(buf.String(), "progress: 1 of 4 done") },
		10*time.Second, time.Millisecond)
	require.Contains(t, buf.String(), "left", "with one of four done, the line estimates the rest")
	update(4)
	finish()
	finish() // idempotent
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Contains(t, lines[len(lines)-1], "progress: 4 of 4 done")
	require.NotContains(t, lines[len(lines)-1], "left")

	// A command that ends before the first tick logs nothing.
	var quiet lockedBuffer
	update, finish = Log(&quiet, 2, time.Hour)
	update(2)
	finish()
	require.Empty(t, quiet.String())
}

func TestRoundWall(t *testing.T) {
	require.Equal(t, 90*time.Second, roundWall(89600*time.Millisecond))
	require.Equal(t, 2*time.Hour+5*time.Minute, roundWall(2*time.Hour+4*time.Minute+40*time.Second))
}
