package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestStatRegistry: a snapshot holds the values put, in catalogue order whatever the order
// they were put in; a statistic never put is absent; a time is written in µs as a number;
// a name listed twice and a statistic outside the catalogue are programming errors.
func TestStatRegistry(t *testing.T) {
	a := &Stat{Name: "a_pages", Unit: UnitPages, Desc: "a", Row: "a / b"}
	b := &Stat{Name: "b_time_us", Unit: UnitTime, Desc: "b", Row: "a / b"}
	c := &Stat{Name: "c", Unit: UnitCount, Desc: "c", Row: "c"}
	cat := NewCatalogue(a, b, c)
	require.Equal(t, []*Stat{a, b, c}, cat.Stats())
	require.Equal(t, b, cat.Lookup("b_time_us"))
	require.Nil(t, cat.Lookup("nope"))
	sn := cat.NewSnapshot()
	sn.Put(b, float64(3*Millisecond))
	sn.PutInt(a, 7)
	require.Equal(t, []StatValue{{a, 7}, {b, 3e9}}, sn.Values())
	_, ok := sn.Value(c)
	require.False(t, ok)
	// 3 ms = 3,000 µs.
	require.Equal(t, 3000.0, b.Number(3e9))
	require.Equal(t, 7.0, a.Number(7))
	require.PanicsWithValue(t, "sim: statistic a_pages listed twice", func() { NewCatalogue(a, &Stat{Name: "a_pages"}) })
	require.PanicsWithValue(t, "sim: statistic x is not in the catalogue", func() { sn.Put(&Stat{Name: "x"}, 1) })
	var none *StatSnapshot
	require.Nil(t, none.Values())
	_, ok = none.Value(a)
	require.False(t, ok)
	require.Equal(t, "us", UnitTime.String())
}
