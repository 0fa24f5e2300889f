package sim

import "fmt"

// Queue is a bounded FIFO between processes (or from engine events to processes). A
// process that sends to a full queue or receives from an empty one blocks in simulated time.
// Storage is a ring allocated once, so steady-state use allocates nothing.
type Queue[T any] struct {
	name    string
	buf     []T
	head    int
	n       int
	recvSig Signal
	sendSig Signal
}

// NewQueue returns a queue that holds at most capacity items.
func NewQueue[T any](name string, capacity int) *Queue[T] {
	if capacity <= 0 {
		panic(fmt.Sprintf("sim: queue %s capacity %d must be positive", name, capacity))
	}
	return &Queue[T]{name: name, buf: make([]T, capacity)}
}

// Name returns the queue's name.
func (q *Queue[T]) Name() string { return q.name }

// Len returns the number of queued items.
func (q *Queue[T]) Len() int { return q.n }

// Cap returns the capacity.
func (q *Queue[T]) Cap() int { return len(q.buf) }

// Full reports whether the queue is full.
func (q *Queue[T]) Full() bool { return q.n == len(q.buf) }

// TrySend appends v if there is room and reports whether it did. It never blocks, so engine
// event handlers may call it.
func (q *Queue[T]) TrySend(v T) bool {
	if q.n == len(q.buf) {
		return false
	}
	i := q.head + q.n
	if i >= len(q.buf) {
		i -= len(q.buf)
	}
	q.buf[i] = v
	q.n++
	q.recvSig.Notify()
	return true
}

// TryRecv removes and returns the oldest item if there is one.
func (q *Queue[T]) TryRecv() (T, bool) {
	var zero T
	if q.n == 0 {
		return zero, false
	}
	v := q.buf[q.head]
	q.buf[q.head] = zero
	q.head++
	if q.head == len(q.buf) {
		q.head = 0
	}
	q.n--
	q.sendSig.Notify()
	return v, true
}

// Peek returns the oldest item without removing it.
func (q *Queue[T]) Peek() (T, bool) {
	if q.n == 0 {
		var zero T
		return zero, false
	}
	return q.buf[q.head], true
}

// Send appends v, blocking p while the queue is full.
func (q *Queue[T]) Send(p *Proc, v T) {
	for !q.TrySend(v) {
		p.Wait(&q.sendSig)
	}
}

// Recv removes and returns the oldest item, blocking p while the queue is empty.
func (q *Queue[T]) Recv(p *Proc) T {
	for {
		if v, ok := q.TryRecv(); ok {
			return v
		}
		p.Wait(&q.recvSig)
	}
}
