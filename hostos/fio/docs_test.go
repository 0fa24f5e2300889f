package fio

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/fio.md's option and engine tables from the code")

const (
	docsPath  = "../../docs/fio.md"
	docsBegin = "<!-- tables: generated from hostos/fio (go test ./hostos/fio -run TestDocsTables -update-docs) -->"
	docsEnd   = "<!-- end of generated tables -->"
)

// docsTables renders the option and engine tables.
func docsTables() string {
	var b strings.Builder
	cell := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	b.WriteString("### Every fio option\n\n| option (aliases) | here | why, or how it maps |\n|---|---|---|\n")
	for _, o := range Options() {
		name := "`" + o.Name + "`"
		if len(o.Aliases) > 0 {
			name += " (`" + strings.Join(o.Aliases, "`, `") + "`)"
		}
		b.WriteString("| " + name + " | " + o.Treatment + " | " + cell(o.Note) + " |\n")
	}
	b.WriteString("\n### Every fio engine\n\n| ioengine | here | why, or how it maps |\n|---|---|---|\n")
	for _, e := range Engines() {
		b.WriteString("| `" + e.Name + "` | " + e.Treatment + " | " + cell(e.Note) + " |\n")
	}
	return b.String()
}

// TestDocsTables: docs/fio.md's tables of options and engines are the code's (optionTable,
// engineTable), so the documentation cannot drift from what the reader does.
func TestDocsTables(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	if os.IsNotExist(err) {
		t.Skip("docs/fio.md is not beside the package")
	}
	require.NoError(t, err)
	doc := string(data)
	i, j := strings.Index(doc, docsBegin), strings.Index(doc, docsEnd)
	require.True(t, i >= 0 && j > i, "docs/fio.md has the generated-tables markers")
	want := doc[:i+len(docsBegin)] + "\n\n" + docsTables() + "\n" + doc[j:]
	if *updateDocs {
		require.NoError(t, os.WriteFile(docsPath, []byte(want), 0o644))
		return
	}
	require.Equal(t, want, doc, "run go test ./hostos/fio -run TestDocsTables -update-docs")
}
