// Package prefetch asks the CPU to bring a cache line in ahead of its use, so a model can
// overlap the cache miss of a large table it will read soon (the FTL's mapping table, the
// buffer's LPN index) with other work. It changes no result: a prefetch is a hint.
package prefetch
