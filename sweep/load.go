package sweep

import (
	"errors"
	"strings"

	"github.com/fastdrain-sim/fastdrain/platforms"
)

// load loads the base configuration with extra overrides applied last. Every key and value
// must decode. With lenient set a configuration that decodes but fails validation is
// accepted; otherwise a flashbench spec accepts one whose only problems lie outside the
// flash section (a preset refused for full-system use, e.g. mqsim-ref's 8 KiB pages, is
// still a valid flash array), and a run spec accepts none.
func (s Spec) load(extra []string, lenient bool) (platforms.Config, error) {
	sets := append(append([]string(nil), s.Base.Sets...), extra...)
	c, err := platforms.Load(platforms.Options{Preset: s.Base.Preset, Variant: s.Base.Variant,
		Files: s.Base.Files, Sets: sets})
	if err == nil {
		return c, nil
	}
	// platforms.Load returns exactly c.Validate() when the sources decoded.
	verr := c.Validate()
	if verr == nil || verr.Error() != err.Error() {
		return c, err
	}
	if lenient {
		return c, nil
	}
	if s.Kind != KindFlashbench {
		return c, err
	}
	var flash []error
	for _, e := range leaves(verr) {
		if strings.HasPrefix(e.Error(), "flash") {
			flash = append(flash, e)
		}
	}
	return c, errors.Join(flash...)
}

// leaves returns the errors joined in err (err itself if it joins none).
func leaves(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leaves(e)...)
		}
		return out
	}
	return []error{err}
}
