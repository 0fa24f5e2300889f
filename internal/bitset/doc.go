// Package bitset is a set of small non-negative integers, a bit each, with a scan for the
// next member: the channel's arbiter keeps the ways that may start a transaction in one,
// the flash scheduler the dies open to eviction, so neither walks the others.
package bitset
