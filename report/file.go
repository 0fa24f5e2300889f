package report

import (
	"fmt"
	"io"
	"os"
)

// WriteFile creates path and fills it with fill; an error from fill names the file, and
// the file is closed either way.
func WriteFile(path string, fill func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
