package nand

import "testing"

// TestNames: the page types and an address print as the configuration and the logs name
// them.
func TestNames(t *testing.T) {
	for p, want := range map[PageType]string{LSB: "lsb", CSB: "csb", MSB: "msb", TSB: "tsb", 7: "pagetype(7)"} {
		if got := p.String(); got != want {
			t.Errorf("PageType(%d).String() = %q, want %q", p, got, want)
		}
	}
	if got := (Addr{Plane: 1, Block: 12, Page: 7}).String(); got != "plane 1 block 12 page 7" {
		t.Errorf("Addr.String() = %q", got)
	}
	if ErasedStamp != 0xFFFF_FFFF_FFFF_FFFF {
		t.Errorf("ErasedStamp = %#x, want all ones (erased NAND reads 0xFF)", ErasedStamp)
	}
}
