// Package cliflags holds the command-line flag sets that fastdrain's commands compose, each
// declared once with its parsing and validation:
//
//   - Output, the output contract every command that produces results shares (--format,
//     --out, --no-files, --percentiles, --timeline and --timeline-*), with the same defaults
//     and meaning everywhere (docs/outputs.md, "The output contract");
//   - Config, the platform a command builds (--preset, --variant, --config, --set);
//   - Workload, the co-location workload and its simulated time (--scenario, --duration,
//     --quick, --full, --warmup, --apps, --seed, --jobs) of run, compare, figures and
//     sweep's run points;
//   - CheckValues, FlagError and Time, the checks every flag value gets (a negative count,
//     a number of the wrong kind, a time with a bad unit), each error naming the flag.
//
// The command line (cmd/fastdrain) composes these and calls the library packages (runner,
// sweep, flashbench, …) with what they parse.
package cliflags
