package powercut

import (
	"bytes"
	"os"
	"path/filepath"
)

// WriteDir writes a campaign's results under dir: powercut.csv (Numbers) and
// powercut.json (WriteJSON), with the matrix's notes.
func WriteDir(dir string, rows []Row, cuts []*Cut, notes []Note) error {
	if err := Numbers(rows, notes).SaveCSV(filepath.Join(dir, "powercut.csv")); err != nil {
		return err
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, rows, cuts, notes); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "powercut.json"), b.Bytes(), 0o644)
}

// ParsePLP parses which power-loss protection settings a campaign covers: on, off or
// both (on first).
func ParsePLP(s string) ([]bool, bool) {
	switch s {
	case "on":
		return []bool{true}, true
	case "off":
		return []bool{false}, true
	case "both":
		return []bool{true, false}, true
	}
	return nil, false
}
