package pcie

// Kind is the type of a TLP, and names the activity its wire time is booked under.
type Kind uint8

// TLP kinds.
const (
	MWr      Kind = iota // memory write (MMIO write, DMA write), posted
	MRd                  // memory read request, no payload
	CplD                 // completion with data
	MSIX                 // MSI-X interrupt message: a 4 B posted memory write
	NumKinds             // number of kinds
)

// DLLPActivity is the activity name under which a transfer's share of ACK and UpdateFC
// DLLPs and SKP ordered sets is booked.
const DLLPActivity = "dllp"

var kindNames = [NumKinds]string{"mwr", "mrd", "cpld", "msix"}

// String returns the kind's activity name: "mwr", "mrd", "cpld" or "msix".
func (k Kind) String() string {
	if k < NumKinds {
		return kindNames[k]
	}
	return "kind?"
}

// TLP overhead, docs/sources.md §2 (pcie-model constants).
const (
	framingBytes = 8  // STP/start + sequence number + LCRC + end: "6 bytes plus start and end symbol"
	hdr3DW       = 12 // 32-bit memory request or completion header
	hdr4DW       = 16 // 64-bit memory request header
	ecrcBytes    = 4  // optional TLP digest
	msixBytes    = 4  // MSI-X message data
	dwBytes      = 4  // payloads travel in whole doublewords
)

// RequestOverhead returns the bytes a memory request TLP (MWr or MRd) carries besides its
// payload: 8 B framing + 16 B header with Addr64 (12 B without), +4 B with ECRC. docs/sources.md
// §2: 24 B with 64-bit addresses, 20 B with 32-bit.
func (s Spec) RequestOverhead() int {
	n := framingBytes + hdr3DW
	if s.Addr64 {
		n = framingBytes + hdr4DW
	}
	if s.ECRC {
		n += ecrcBytes
	}
	return n
}

// CompletionOverhead returns the bytes a CplD TLP carries besides its payload: 8 B framing +
// 12 B header, +4 B with ECRC. docs/sources.md §2: 20 B.
func (s Spec) CompletionOverhead() int {
	n := framingBytes + hdr3DW
	if s.ECRC {
		n += ecrcBytes
	}
	return n
}

// WriteTLPs returns how many MWr TLPs a posted write of payload bytes is split into: one per
// MPS bytes, assuming an MPS-aligned start.
func (s Spec) WriteTLPs(payload int) int { return ceilDiv(payload, s.MPS) }

// ReadRequests returns how many MRd TLPs a read of n bytes needs: one per MRRS bytes.
func (s Spec) ReadRequests(n int) int { return ceilDiv(n, s.MRRS) }

// Completions returns how many CplD TLPs return a read of n bytes. Each request of at most
// MRRS bytes is answered by completions of at most MPS bytes (or RCB bytes with RCBChunks),
// docs/sources.md §2 (AMD QDMA PG302), assuming an aligned start. All sizes are powers of two, so
// this is one completion per min(MRRS, chunk) bytes.
func (s Spec) Completions(n int) int { return ceilDiv(n, min(s.MRRS, s.completionChunk())) }

func (s Spec) completionChunk() int {
	if s.RCBChunks {
		return min(s.RCB, s.MPS)
	}
	return s.MPS
}

// WriteTLPBytes returns the TLP bytes of a posted write of payload bytes: the payload
// rounded up to whole doublewords plus RequestOverhead per TLP. docs/sources.md §2: 4 KiB at MPS
// 256 with 64-bit addresses is 16 × (256 + 24) = 4480 B.
func (s Spec) WriteTLPBytes(payload int) int {
	return padDW(payload) + s.WriteTLPs(payload)*s.RequestOverhead()
}

// ReadRequestBytes returns the TLP bytes of the read requests for n bytes.
func (s Spec) ReadRequestBytes(n int) int { return s.ReadRequests(n) * s.RequestOverhead() }

// CompletionBytes returns the TLP bytes of the completions returning n bytes.
func (s Spec) CompletionBytes(n int) int {
	return padDW(n) + s.Completions(n)*s.CompletionOverhead()
}

// WriteWireBytes returns the bytes one direction carries for a posted write of payload
// bytes: WriteTLPBytes plus, with DLLPOverhead, the DLLP and SKP share rounded up to a whole
// byte. The link itself keeps that share exact, so WireTime(WriteWireBytes(n)) may exceed
// TLPTime(WriteTLPBytes(n)) by less than one byte time.
func (s Spec) WriteWireBytes(payload int) int {
	t := s.WriteTLPBytes(payload)
	fn, fd := s.DLLPFactor()
	return t + int((int64(t)*(fn-fd)+fd-1)/fd)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

func padDW(n int) int { return (n + dwBytes - 1) &^ (dwBytes - 1) }
