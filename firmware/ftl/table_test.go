package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTableStoresComplements: a zeroed table reads as all ones (NoPage, pFree), and what is
// put is read back; in memory the entry is the value's complement.
func TestTableStoresComplements(t *testing.T) {
	m := make(table[PPN], 4)
	for i := range int64(4) {
		require.Equal(t, NoPage, m.at(i))
	}
	m.put(2, 7)
	require.Equal(t, PPN(7), m.at(2))
	require.Equal(t, ^PPN(7), m[2])
	m.put(2, NoPage)
	require.Equal(t, PPN(0), m[2])
}

// TestNewFTLIsEmpty: a new FTL maps no logical page and every physical page is free, and its
// invariants hold; one write then maps exactly that page.
func TestNewFTLIsEmpty(t *testing.T) {
	f := newFTL(t, small(), nil)
	for lpn := range f.LogicalPages() {
		require.Equal(t, NoUnit, f.Lookup(lpn))
	}
	for p := range PPN(small().Pages()) {
		_, valid := f.Owner(Unit(p))
		require.False(t, valid)
		require.Equal(t, pFree, f.p2l.at(int64(p)))
	}
	require.NoError(t, f.Check())
	p, err := f.WriteHost(5, 0, Foreground)
	require.NoError(t, err)
	require.Equal(t, Unit(p), f.Lookup(5))
	lpn, valid := f.Owner(Unit(p))
	require.True(t, valid)
	require.Equal(t, int64(5), lpn)
	require.NoError(t, f.Check())
}
