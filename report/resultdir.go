package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// NewResultDir creates and returns a new directory for one run's results: parent/name, or
// parent/name-2, parent/name-3, … when that exists. Mkdir is atomic, so two commands
// started together get different directories.
func NewResultDir(parent, name string) (string, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	name = strings.NewReplacer("/", "_", string(filepath.Separator), "_").Replace(name)
	for i := 1; ; i++ {
		d := filepath.Join(parent, name)
		if i > 1 {
			d = fmt.Sprintf("%s-%d", d, i)
		}
		err := os.Mkdir(d, 0o755)
		if err == nil {
			return d, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
}
