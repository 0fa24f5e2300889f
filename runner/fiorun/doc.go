// Package fiorun runs fio job files on a simulated machine (runner.Machine) and shapes
// what they measured: the jobs' results, the SSD's statistics, the energy of an idle span
// and of the jobs, and the text table, CSV table and fio JSON document the fio command
// prints and writes (docs/fio.md).
package fiorun
