// Package sysmem tells how much memory this machine lets the simulator use: the physical
// memory (MemTotal in /proc/meminfo) or, if lower, the limit of the process's control group
// (cgroup v2 memory.max, or v1 memory.limit_in_bytes). The resource guard
// (platforms.Config.CheckMemory) uses it as the default limit. It reads files only; nothing
// in the simulated models depends on it.
package sysmem
