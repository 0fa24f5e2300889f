// Package sim is fastdrain's simulation kernel: integer-picosecond time, clocks, the
// serial event engine, sequential processes, resources with utilization accounting,
// bounded queues and signals, seeded random streams, counters, histograms and time series.
//
// Every other package stands on it. The engine runs one event at a time in the total order
// (time, phase, sequence number); a process (Proc) is a coroutine that the engine resumes
// from an event, so exactly one process or the engine runs at any moment and a run is
// deterministic: the same configuration and seed give byte-identical results on any machine
// and under any GOMAXPROCS.
//
// Components are not ticked while idle. A component schedules an event for the clock edge
// where something happens next (a 5 ms flash program is one event, not millions of ticks).
// Observers that read the state at fixed boundaries of time (the energy meter's 1 ms
// buckets) attach a Watch instead of scheduling an event per boundary: the engine tells
// them of each boundary once nothing is pending up to it, and adds no events. A watchdog,
// which need not see the state exactly at its boundary, attaches a late watch
// (ObserveLate), which does not even refuse a Jump: the run fires the same events with it
// as without it.
//
// The package imports only the standard library. It never prints: what is observable is read
// from Resource, Counter, Histogram and Series values and from hooks.
package sim
