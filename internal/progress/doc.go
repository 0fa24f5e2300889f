// Package progress shows a long command's progress on standard error: a bar on a
// terminal, a line every 30 s of wall time in a file or a pipe. The wall clock is read
// here, outside every model: results do not depend on it.
package progress
