// Package buildinfo is what a fastdrain binary knows of its own build — the Go toolchain,
// the module version, the VCS revision go build stamped or, for a binary go run or go test
// built, read from the source tree — and the command line as the user typed it, for the
// version command and every result directory's run.yaml.
package buildinfo
