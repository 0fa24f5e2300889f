package onfi

// Opcodes of the ONFI command set used by the sequences in this package (docs/sources.md §3.3,
// Hynix H27U4G8_6F2D Table 6 and the ONFI multi-plane variants).
const (
	OpRead             byte = 0x00 // first cycle of read, multi-plane read and random data out
	OpReadConfirm      byte = 0x30 // read: start tR
	OpReadMultiPlane   byte = 0x32 // multi-plane read: queue this plane, dummy busy tDBSY
	OpChangeReadColumn byte = 0x06 // change read column enhanced: select a plane's register
	OpChangeColumnEnd  byte = 0xE0 // end of change read column
	OpProgram          byte = 0x80 // first cycle of program (first plane)
	OpProgramNextPlane byte = 0x81 // first cycle of program for a later plane (ONFI multi-plane)
	OpProgramConfirm   byte = 0x10 // program: start tPROG
	OpProgramMulti     byte = 0x11 // multi-plane program: queue this plane, dummy busy tDBSY
	OpCacheProgram     byte = 0x15 // cache program: start tPROG, free the cache register
	OpErase            byte = 0x60 // first cycle of block erase
	OpEraseConfirm     byte = 0xD0 // erase: start tBERS
	OpEraseMulti       byte = 0xD1 // multi-plane erase: queue this plane's block
	OpReadStatus       byte = 0x70 // read status (accepted while busy)
	OpReadStatusEnh    byte = 0x78 // read status enhanced: addresses one LUN (row address)
)

// Kind names a command sequence.
type Kind uint8

// The sequences this package times.
const (
	KindRead         Kind = iota // 00h-addr-30h (multi-plane: 00h-addr-32h … 00h-addr-30h)
	KindProgram                  // 80h-addr-data-10h (multi-plane: 80h-…-11h … 81h-…-10h)
	KindCacheProgram             // 80h-addr-data-15h (multi-plane: 80h-…-11h … 81h-…-15h)
	KindErase                    // 60h-row-D0h (multi-plane: 60h-row-D1h … 60h-row-D0h)
	KindStatus                   // 70h, then one status byte
	KindStatusEnh                // 78h-row, then one status byte
)

// Sequence returns the opcodes, in order, that a controller sends for plane (0-based) of a
// planes-plane command of the given kind. Address and data cycles are not listed. It is the
// reference the timing functions below follow, and is used in documentation and traces.
func Sequence(kind Kind, plane, planes int) []byte {
	last := plane == planes-1
	switch kind {
	case KindRead:
		if last {
			return []byte{OpRead, OpReadConfirm}
		}
		return []byte{OpRead, OpReadMultiPlane}
	case KindProgram, KindCacheProgram:
		first := OpProgram
		if plane > 0 {
			first = OpProgramNextPlane
		}
		confirm := OpProgramMulti
		if last {
			confirm = OpProgramConfirm
			if kind == KindCacheProgram {
				confirm = OpCacheProgram
			}
		}
		return []byte{first, confirm}
	case KindErase:
		if last {
			return []byte{OpErase, OpEraseConfirm}
		}
		return []byte{OpErase, OpEraseMulti}
	case KindStatus:
		return []byte{OpReadStatus}
	case KindStatusEnh:
		return []byte{OpReadStatusEnh}
	}
	return nil
}
