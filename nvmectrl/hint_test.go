package nvmectrl

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestHintCarrierBytes(t *testing.T) {
	cases := []struct {
		name    string
		carrier HintCarrier
		hint    Hint
		want    map[int]byte // bytes expected non-zero, by offset in the SQE
		decoded Hint
	}{
		// CDW13 at bytes 52..55: flag in byte 53 (bits 15:8), DSPEC in 54..55.
		{"cdw13 victim 300", HintCDW13, Hint{Victim: true, Pages: 300}, map[int]byte{53: 0x01, 54: 0x2C, 55: 0x01}, Hint{Victim: true, Pages: 300}},
		// 70000 pages saturate at 0xFFFF.
		{"cdw13 saturates", HintCDW13, Hint{Victim: true, Pages: 70000}, map[int]byte{53: 0x01, 54: 0xFF, 55: 0xFF}, Hint{Victim: true, Pages: 0xFFFF}},
		{"cdw13 not victim", HintCDW13, Hint{Victim: false, Pages: 300}, map[int]byte{}, Hint{}},
		// CDW2 at bytes 8..11: flag in byte 8, pages in bits 31:8 → 300 = 0x00012C at bytes 9..11.
		{"cdw2 victim 300", HintCDW2, Hint{Victim: true, Pages: 300}, map[int]byte{8: 0x01, 9: 0x2C, 10: 0x01}, Hint{Victim: true, Pages: 300}},
		{"cdw2 saturates", HintCDW2, Hint{Victim: true, Pages: 1 << 30}, map[int]byte{8: 0x01, 9: 0xFF, 10: 0xFF, 11: 0xFF}, Hint{Victim: true, Pages: 0xFFFFFF}},
		{"none", HintNone, Hint{Victim: true, Pages: 300}, map[int]byte{}, Hint{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e SQE
			c.carrier.Encode(&e, c.hint)
			for i := range e {
				require.Equal(t, c.want[i], e[i], "byte %d", i)
			}
			require.Equal(t, c.decoded, c.carrier.Decode(&e))
		})
	}
	// The default carrier leaves the DSM byte and CDW12 alone.
	var e SQE
	e.SetDSM(0x83)
	e.SetFUA(true)
	HintCDW13.Encode(&e, Hint{Victim: true, Pages: 5})
	require.Equal(t, uint8(0x83), e.DSM())
	require.True(t, e.FUA())
	require.Equal(t, uint8(0), e.DTYPE())
}

func TestStatusCarrierBytes(t *testing.T) {
	var c CQE
	c.SetSQHD(77) // a real head pointer
	c.SetSQID(1)
	StatusSQHD.Encode(&c, bufferlevel.High)
	require.Equal(t, CQE{8: 0x02, 10: 0x01}, c) // SQHD replaced by 2; SQID kept
	l, ok := StatusSQHD.Decode(&c)
	require.True(t, ok)
	require.Equal(t, bufferlevel.High, l)

	c = CQE{}
	c.SetSQHD(77)
	StatusSQHD.Encode(&c, bufferlevel.None)
	_, ok = StatusSQHD.Decode(&c) // 77 is a head pointer, not a level
	require.False(t, ok)

	c = CQE{}
	c.SetSQHD(77)
	StatusDW1.Encode(&c, bufferlevel.Mid)
	// DW1 = 1<<31 | 1 → bytes 4..7 = 01 00 00 80; SQHD untouched.
	require.Equal(t, CQE{4: 0x01, 7: 0x80, 8: 77}, c)
	l, ok = StatusDW1.Decode(&c)
	require.True(t, ok)
	require.Equal(t, bufferlevel.Mid, l)
	l, ok = StatusDW1.Decode(&CQE{})
	require.False(t, ok)
	require.Equal(t, bufferlevel.None, l)

	c = CQE{}
	StatusNone.Encode(&c, bufferlevel.High)
	require.Equal(t, CQE{}, c)
}

func TestCarrierYAML(t *testing.T) {
	var cfg struct {
		Hint   HintCarrier   `yaml:"hint"`
		Status StatusCarrier `yaml:"status"`
	}
	require.NoError(t, yaml.Unmarshal([]byte("hint: cdw2\nstatus: dw1\n"), &cfg))
	require.Equal(t, HintCDW2, cfg.Hint)
	require.Equal(t, StatusDW1, cfg.Status)
	out, err := yaml.Marshal(cfg)
	require.NoError(t, err)
	require.Equal(t, "hint: cdw2\nstatus: dw1\n", string(out))
	err = yaml.Unmarshal([]byte("hint: cdw3\n"), &cfg)
	require.ErrorContains(t, err, `hint carrier "cdw3" is not one of cdw13, cdw2, none`)
	err = yaml.Unmarshal([]byte("status: sq\n"), &cfg)
	require.ErrorContains(t, err, `status carrier "sq" is not one of sqhd, dw1, none`)
	require.Equal(t, "HintCarrier(9)", HintCarrier(9).String())
	require.Equal(t, "StatusCarrier(9)", StatusCarrier(9).String())
}

func FuzzParseCarriers(f *testing.F) {
	for _, s := range []string{"cdw13", "cdw2", "none", "sqhd", "dw1", "", "CDW13"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := ParseHintCarrier(s); err == nil {
			require.Equal(t, s, c.String())
		}
		if c, err := ParseStatusCarrier(s); err == nil {
			require.Equal(t, s, c.String())
		}
	})
}

func FuzzHintRoundTrip(f *testing.F) {
	f.Add(uint8(0), true, uint32(300))
	f.Add(uint8(1), true, uint32(1<<25))
	f.Fuzz(func(t *testing.T, c uint8, victim bool, pages uint32) {
		carrier := HintCarrier(c % 3)
		var e SQE
		carrier.Encode(&e, Hint{Victim: victim, Pages: pages})
		got := carrier.Decode(&e)
		switch {
		case carrier == HintNone || !victim:
			require.Equal(t, Hint{}, got)
		case carrier == HintCDW13:
			require.Equal(t, Hint{Victim: true, Pages: min(pages, 0xFFFF)}, got)
		default:
			require.Equal(t, Hint{Victim: true, Pages: min(pages, 0xFFFFFF)}, got)
		}
	})
}
