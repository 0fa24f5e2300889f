package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/enum"
)

// BackgroundSet is the rule that bounds background eviction's programs in flight
// (firmware.buffer.background_set). The paper's firmware "estimates the average number of
// flash channels/dies that are intensively accessed by the applications' I/O requests. For
// each internal buffer eviction, we evict a limited set of pages to the flash dies in idle"
// (Zhang et al., IEEE CAL 2020, §3): the set is the dies in idle, and the words bound it no
// further than "a limited set of pages" for each eviction. The three rules read it three
// ways: idle-dies (every idle die, continuously), share (our bound) and per-eviction (the
// default: one set for each of the buffer's own evictions, as the paper's platform evicts;
// docs/firmware.md gives the evidence for each).
type BackgroundSet uint8

// The background set rules.
const (
	// BackgroundSetIdleDies is the paper's words taken as they stand: every die
	// the background round may send to gets up to background_per_die programs queued, and
	// no other bound applies (background_max and background_share do not). Under FD-Buf
	// those are the dies the idle-die estimate calls idle of host work (activity.go), and
	// the "limited set of pages" of one eviction is one page to each of them; the
	// Oracle-BG control is under the same rule without the estimate (every die with no
	// host read queued or in flight).
	BackgroundSetIdleDies BackgroundSet = iota
	// BackgroundSetShare bounds the programs in flight to background_share of the dies (at
	// least one), under background_max: our choice, with the rationale in docs/firmware.md.
	// It was the default until per-eviction, the reading grounded in the paper's platform,
	// replaced it (issue 31); it stays as the sensitivity with a number of our own.
	BackgroundSetShare
	// BackgroundSetPerEviction (the default) paces FastDrain's background eviction by the
	// buffer's own evictions, as the paper's platform evicts (docs/firmware.md, "The set per
	// eviction"). Its source is the paper's sentence read against the buffer its firmware was
	// built on: Amber's SSD model, SimpleSSD 2.0, whose internal cache
	// (icl/generic_cache.cc) evicts only when a host write finds its set full, one page from
	// every die at a time (EvictMode 1, "One page from all NAND flashes", in
	// config/intel750_400gb.cfg, the paper's Intel 750; its 512 MiB configuration is one
	// fully-associative set, CacheWaySize 0). It is the default because it is the one rule
	// with no number of ours in it (idle-dies has none either, but under it the paper's own
	// observation that FD-Buf's buffer overflows does not occur; docs/fidelity.md). Each
	// internal buffer eviction — a foreground eviction round that sends pages, which in
	// this fully-associative buffer is what a host write finding its set full causes in
	// SimpleSSD's internal cache (an on-demand round while a write waits for room, or
	// FD-Buf's foreground from a predicted overflow) — owes one set of background pages:
	// dies × background_per_die pages, sent one page at a time to each die idle of host
	// work (SimpleSSD's eviction granularity "one page from all NAND flashes", restricted to
	// the dies in idle). A later eviction renews the set rather than adding to it, and
	// with no set owed FastDrain's background rounds send nothing. Background rounds
	// without the idle-die estimate (oracle-bg, the hint-blind control) are not paced:
	// they drain to every die as under idle-dies.
	BackgroundSetPerEviction
)

var backgroundSetNames = [...]string{"idle-dies", "share", "per-eviction"}

// String returns the configuration name.
func (b BackgroundSet) String() string { return enum.Name(backgroundSetNames[:], "BackgroundSet", b) }

// MarshalText implements encoding.TextMarshaler.
func (b BackgroundSet) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (b *BackgroundSet) UnmarshalText(t []byte) error {
	if v, ok := enum.Parse[BackgroundSet](backgroundSetNames[:], string(t)); ok {
		*b = v
		return nil
	}
	return fmt.Errorf("firmware.buffer.background_set: %q is not one of idle-dies, share, per-eviction", t)
}

// backgroundBudget returns the most background programs a firmware keeps in flight over
// dies dies. Under the idle-dies and per-eviction rules, background_per_die on every die:
// no bound but the per-die one (480 on the paper's 480 dies; per-eviction bounds the pages
// by the set each eviction owes instead, backgroundSet). Under the share rule, b.BackgroundMax, and
// with b.BackgroundShare set no more than that share of the dies, rounded down, but at
// least one (Buffer.BackgroundShare gives the rationale): for the paper's 480 dies at
// 0.01, 4.8, so 4.
func backgroundBudget(b Buffer, dies int) int {
	if b.BackgroundSet != BackgroundSetShare {
		return dies * b.BackgroundPerDie
	}
	if b.BackgroundShare == 0 {
		return b.BackgroundMax
	}
	return min(b.BackgroundMax, max(1, int(b.BackgroundShare*float64(dies))))
}

// backgroundSet returns the background pages one internal buffer eviction owes under the
// per-eviction rule, and 0 under the others (their background is not paced by evictions):
// background_per_die to each of the dies, the most a round's visit of every die idle of
// host work can send (480 on the paper's 480 dies at one a die).
func backgroundSet(b Buffer, dies int) int {
	if b.BackgroundSet != BackgroundSetPerEviction {
		return 0
	}
	return dies * b.BackgroundPerDie
}

// The per-eviction rule's pacing (BackgroundSetPerEviction), on the evictor's owed pages
// (evictor.bgOwed): an eviction renews the set, a background program to an idle die spends
// one page of it, and a FastDrain background decision with nothing owed is idle.

// evicted records that a round in mode sent pages: a foreground round is an internal
// buffer eviction, and under the per-eviction rule it owes a full set (bgSet is 0 under the
// other rules, so they owe nothing).
func (ev *evictor) evicted(mode EvictMode) {
	if mode == EvictForeground {
		ev.bgOwed = ev.f.bgSet
	}
}

// paced reports whether the decision is a FastDrain background one (to the dies idle of
// host work) that the per-eviction rule holds back: no set is owed.
func (ev *evictor) paced(d Decision) bool {
	return d.Mode == EvictBackground && d.IdleDies && ev.owesNone()
}

// owesNone reports whether the per-eviction rule is in force and the latest eviction's set
// is spent (or there has been none).
func (ev *evictor) owesNone() bool { return ev.f.bgSet > 0 && ev.bgOwed <= 0 }

// spent records one background program sent under the idle-die estimate: a page of the
// owed set (one flash page, whatever logical pages sub-page mapping packs into it).
func (ev *evictor) spent() {
	if ev.idleDies && ev.bgOwed > 0 {
		ev.bgOwed--
	}
}
