// Package enum maps configuration names to values: a Registry holds the policies that
// packages (and programs outside the module) register under a name, from an init function,
// so that a configuration file can select one by name and a bad name is reported with the
// list of names that would have worked. The FTL's block allocators and GC victim policies
// are registries of this kind (firmware/ftl). Name and Parse serve the closed sets
// instead: iota constants named by a fixed list (closed.go), as the firmware's upcall and
// background-set rules are.
package enum
