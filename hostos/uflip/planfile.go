package uflip

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"

	"github.com/fastdrain-sim/fastdrain/internal/yamlcheck"
	"go.yaml.in/yaml/v3"
)

// goType matches the " in type uflip.X" the YAML decoder appends to unknown-field errors.
var goType = regexp.MustCompile(` in type [A-Za-z0-9_.\[\]*]+`)

// DecodePlanSpec decodes a YAML plan spec (PlanSpec's yaml keys) over spec and validates
// the result. It is strict: an unknown key, a null (which would keep the default), a
// fraction given for a count (which the decoder would truncate) or a value of the wrong
// kind is an error naming its line and key (internal/yamlcheck). An empty document leaves
// spec as it was.
func DecodePlanSpec(data []byte, spec *PlanSpec) error {
	if ps := yamlcheck.Check(data, reflect.TypeFor[PlanSpec](), ""); len(ps) > 0 {
		msgs := make([]string, len(ps))
		for i, p := range ps {
			msgs[i] = p.String()
		}
		return errors.New(strings.Join(msgs, "\n"))
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(spec); err != nil && !errors.Is(err, io.EOF) {
		// The decoder names lines and keys; drop the Go type names it adds.
		return errors.New(goType.ReplaceAllString(err.Error(), ""))
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return fmt.Errorf("more than one YAML document")
	}
	return spec.Validate()
}
