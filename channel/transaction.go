package channel

import (
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Kind is the operation of a transaction.
type Kind uint8

// The transaction kinds.
const (
	Read    Kind = iota // read one page per plane: cmd/addr, tR, data-out
	Program             // program one page per plane: cmd/addr + data-in, tPROG
	Erase               // erase one block per plane: cmd/addr, tBERS
)

// String returns "read", "program" or "erase".
func (k Kind) String() string {
	switch k {
	case Read:
		return "read"
	case Program:
		return "program"
	case Erase:
		return "erase"
	}
	return "kind?"
}

// Transaction is one flash operation on one die, possibly multi-plane. The caller owns it:
// it fills the request fields, calls Channel.Submit, and may reuse it once Done has been
// called. The channel fills the result fields.
type Transaction struct {
	// Request.
	Kind  Kind
	Die   int        // index of the die on the channel
	Addrs []die.Addr // one address per plane (multi-plane rule: see package die)
	// Stamps holds one out-of-band stamp per address (die.Spec.StampsPerPage per address,
	// address-major, with several a page): stored by a program, returned by a read
	// (die.ErasedStamp for an unprogrammed page). For reads, give it capacity
	// len(Addrs)·StampsPerPage to avoid an allocation; Submit sets its length.
	Stamps []uint64
	Bytes  int         // data bytes per plane on the bus (reads, programs); 0 = a full page
	Done   sim.Handler // notified at completion with Event.Data = this *Transaction; may be nil
	Tag    any         // the caller's; the channel never reads it
	// MaySuspend lets a read suspend its die's running program or erase (when the die has
	// suspend, die.Spec.Suspend, and Die.Suspendable allows it): the flash scheduler's
	// decision, made per read (the firmware sets it on host reads). Without it a read waits
	// for the die like any other transaction. Ignored for programs and erases.
	MaySuspend bool
	// SLC runs the read or program in the die's pSLC mode (die.Die.ReadSLC, ProgramSLC:
	// the block must be erased or in that mode). Ignored for erases.
	SLC bool

	// Results, in simulated time.
	Submitted  sim.Time // Submit was called
	BusStart   sim.Time // its first command cycle went on the bus
	ArrayStart sim.Time // the die accepted the command (start of tR/tPROG/tBERS, or of the suspend that precedes a read's tR)
	ArrayEnd   sim.Time // the array work ended (for a program or erase, after any suspensions)
	Completed  sim.Time // the last data byte or status was on the bus; Done was called
	// Failed has bit i set when the program or erase of Addrs[i] failed (the die's status
	// FAIL bit: die.Die.Failed), or when the read of Addrs[i] stayed uncorrectable after
	// every read-retry step; 0 for operations that succeeded.
	Failed uint64
	// Retries is the read-retry steps a read took (each a tR and a data-out again, after
	// the first data-out: die.ReadErrorSpec).
	Retries int
	// Suspended reports that the read started by suspending its die's program or erase
	// (whose end moved later by the suspension: die.Die.Read).
	Suspended bool

	state     txState
	retryLeft int          // read-retry steps still to run
	planes    uint64       // a read's planes, on dies with independent plane reads
	seq       uint64       // submission order
	next      *Transaction // queue link
}

// Latency returns Completed − Submitted.
func (tx *Transaction) Latency() sim.Time { return tx.Completed - tx.Submitted }

// InFlight reports whether the transaction has been submitted and has not completed.
func (tx *Transaction) InFlight() bool { return tx.state != stFree }

// txState is where a transaction is in its life.
type txState uint8

const (
	stFree    txState = iota // not submitted, or completed
	stQueued                 // waiting for its die and the bus
	stIssue                  // command/address (and data-in) on the bus
	stArray                  // tR, tPROG or tBERS in the die
	stWaitBus                // array done; waiting for the bus (data-out or status)
	stOut                    // data-out or status on the bus
	stCached                 // a cache program's data is in the die's cache register; its tPROG waits for the array
)

// txList is an intrusive FIFO of transactions (no allocation).
type txList struct {
	head, tail *Transaction
}

func (l *txList) push(tx *Transaction) {
	tx.next = nil
	if l.tail == nil {
		l.head = tx
	} else {
		l.tail.next = tx
	}
	l.tail = tx
}

// remove unlinks tx, which is in the list.
func (l *txList) remove(tx *Transaction) {
	if l.head == tx {
		l.pop()
		return
	}
	prev := l.head
	for prev.next != tx {
		prev = prev.next
	}
	prev.next = tx.next
	if l.tail == tx {
		l.tail = prev
	}
	tx.next = nil
}

func (l *txList) pop() *Transaction {
	tx := l.head
	if tx != nil {
		l.head = tx.next
		if l.head == nil {
			l.tail = nil
		}
		tx.next = nil
	}
	return tx
}
