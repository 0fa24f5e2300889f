package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoReferenceOutsideRepository fails when a source file or a page of the repository
// points to the project's planning files that live beside the checkout, not in it (issue
// 33: the design is docs/design.md and the sources docs/sources.md). A user who clones the
// project has neither; a comment citing them sends the reader nowhere.
func TestNoReferenceOutsideRepository(t *testing.T) {
	root := filepath.Join("..", "..")
	// Spelled in two halves so that this file does not match itself.
	names := []string{"FACTS" + ".md", "DESIGN" + ".md"}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "results" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".yaml", ".yml", ".sh":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, n := range names {
			if strings.Contains(string(b), n) {
				t.Errorf("%s names %s, which is not in the repository (cite docs/design.md or docs/sources.md)", path, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
