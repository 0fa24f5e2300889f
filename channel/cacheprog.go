package channel

import "github.com/fastdrain-sim/fastdrain/sim"

// Cache program (die.Spec.CacheProgram): ONFI's Page Cache Program, 80h–15h (multi-plane:
// 80h–11h … 81h–15h), lets the die take the next program's data into its cache register
// while the array programs the page before; the data moves to the data register and the
// next tPROG starts when the array is free (the Hynix H27UCG8T2M datasheet, §4.11: the
// device accepts the next 80h–15h while the array programs; cache program works only within
// one block). So a die programming page after page of one block costs
//
//	first data-in + Σ max(tPROG, next data-in)
//
// instead of Σ (data-in + tPROG): the data-in of every program but the first hides under
// the array time of the one before. The channel lets a program start its bus phase on a
// die whose owner is a program in its array phase, to the same blocks (plane by plane)
// and in the same mode (SLC or native), if no program is cached yet (cacheable); the
// program becomes the die's owner when the one before completes (promote), and its array
// work starts then if its data is in (else at the end of its data-in). A read that may
// suspend still suspends the owner's program as before; the cached program waits for it.
// With status polling the cached program's tPROG starts after the owner's status poll, not
// at its array end (the model keeps one owner a die).

// cacheable reports whether program tx may go into die w's cache register now: the die's
// owner is a program in its array phase, to the same block of each plane and in the same
// mode, and no program is cached yet.
func (c *Channel) cacheable(w *way, tx *Transaction) bool {
	o := w.owner
	if w.cached != nil || o.Kind != Program || o.state != stArray || o.SLC != tx.SLC || len(o.Addrs) != len(tx.Addrs) {
		return false
	}
	for i, a := range tx.Addrs {
		if a.Plane != o.Addrs[i].Plane || a.Block != o.Addrs[i].Block {
			return false
		}
	}
	return true
}

// promote makes die w's cached program its owner (the owner before has completed), and
// starts its array work if its data is in.
func (c *Channel) promote(w *way, now sim.Time) {
	tx := w.cached
	w.owner, w.cached = tx, nil
	if tx.state == stCached {
		c.startArray(tx, w.die, now)
	}
}
