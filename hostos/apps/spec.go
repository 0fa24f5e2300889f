package apps

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/fastdrain-sim/fastdrain/internal/yamlcheck"
	"go.yaml.in/yaml/v3"
)

// Application names, as the paper writes them (lower case).
const (
	ApacheF    = "apache-f"
	ApacheU    = "apache-u"
	DBS        = "db-s"
	DBU        = "db-u"
	ImgServerF = "imgserver-f"
	ImgServerU = "imgserver-u"
	Ungzip     = "ungzip"
)

// LatencyCritical lists the six latency-critical applications in the paper's order.
func LatencyCritical() []string {
	return []string{ApacheF, ApacheU, DBS, DBU, ImgServerF, ImgServerU}
}

// AppNames lists every application: the latency-critical ones, then Ungzip.
func AppNames() []string { return append(LatencyCritical(), Ungzip) }

// Spec configures every application model and the response-time series. In YAML it is
// the apps section of a platform file; keys are snake_case (apache_f, db_u, …).
type Spec struct {
	ApacheF    ServerSpec `yaml:"apache_f"`
	ApacheU    ServerSpec `yaml:"apache_u"`
	DBS        DBSpec     `yaml:"db_s"`
	DBU        DBSpec     `yaml:"db_u"`
	ImgServerF ServerSpec `yaml:"imgserver_f"`
	ImgServerU ServerSpec `yaml:"imgserver_u"`
	Ungzip     UngzipSpec `yaml:"ungzip"`
	Series     SeriesSpec `yaml:"series"`
}

// DefaultSpec returns every application's documented default (docs/workloads.md).
func DefaultSpec() Spec {
	return Spec{
		ApacheF:    DefaultApacheF(),
		ApacheU:    DefaultApacheU(),
		DBS:        DefaultDBS(),
		DBU:        DefaultDBU(),
		ImgServerF: DefaultImgServerF(),
		ImgServerU: DefaultImgServerU(),
		Ungzip:     DefaultUngzip(),
		Series:     DefaultSeriesSpec(),
	}
}

// Validate reports every problem with the spec, each naming its field path
// ("apps.apache_u.clients: 0 must be between 1 and 65536").
func (s Spec) Validate() error {
	var errs []error
	errs = append(errs, s.ApacheF.problems("apps.apache_f.")...)
	errs = append(errs, s.ApacheU.problems("apps.apache_u.")...)
	errs = append(errs, s.DBS.problems("apps.db_s.")...)
	errs = append(errs, s.DBU.problems("apps.db_u.")...)
	errs = append(errs, s.ImgServerF.problems("apps.imgserver_f.")...)
	errs = append(errs, s.ImgServerU.problems("apps.imgserver_u.")...)
	errs = append(errs, s.Ungzip.problems("apps.ungzip.")...)
	errs = append(errs, s.Series.problems("apps.series.")...)
	return errors.Join(errs...)
}

// yamlLine matches yaml.v3's "line N: " prefix.
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// unknownKey matches yaml.v3's message for a key that is not in the struct.
var unknownKey = regexp.MustCompile(`^field (\S+) not found in type `)

// ReadFile reads the apps section in the YAML file at path (Decode); the error names the file.
func ReadFile(path string) (Spec, error) {
	f, err := os.Open(path)
	if err != nil {
		return Spec{}, err
	}
	defer f.Close()
	return Decode(f, path)
}

// Decode reads an apps section (see Spec) over DefaultSpec, strictly: an unknown key is an
// error naming the key and its line, and the result is validated. filename is used in
// messages only. An empty document yields the defaults.
func Decode(r io.Reader, filename string) (Spec, error) {
	s := DefaultSpec()
	data, err := io.ReadAll(r)
	if err != nil {
		return Spec{}, fmt.Errorf("%s: %w", filename, err)
	}
	if err := decodeStrict(data, &s, filename, "apps"); err != nil {
		return Spec{}, err
	}
	if err := s.Validate(); err != nil {
		return Spec{}, fmt.Errorf("%s: %w", filename, err)
	}
	return s, nil
}

// decodeStrict decodes data into v with unknown keys, nulls and fractional counts rejected
// (internal/yamlcheck), rewriting yaml.v3's messages as "file:line: unknown key "k"" and a
// bad unit string as "file:line: root.path.key: message".
func decodeStrict(data []byte, v any, filename, root string) error {
	// What the decoder would take silently — a null keeping the default, a fraction
	// truncated for a count — is refused first (unknown keys are the decoder's to report).
	var silent []error
	for _, p := range yamlcheck.Check(data, reflect.TypeOf(v).Elem(), root) {
		if p.Kind != yamlcheck.UnknownKey {
			silent = append(silent, fmt.Errorf("%s:%d: %s", filename, p.Line, p.Msg))
		}
	}
	if len(silent) > 0 {
		return errors.Join(silent...)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	err := dec.Decode(v)
	if err == nil || errors.Is(err, io.EOF) {
		return nil
	}
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		// yaml.v3 reports a failed UnmarshalText without its place: find it.
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) == nil {
			if line, path, berr := badScalar(&doc, reflect.TypeOf(v).Elem(), root, 0); berr != nil {
				return fmt.Errorf("%s:%d: %s: %w", filename, line, path, berr)
			}
		}
		return fmt.Errorf("%s: %s", filename, err)
	}
	errs := make([]error, 0, len(te.Errors))
	for _, msg := range te.Errors {
		line, rest := "", msg
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, rest = m[1], m[2]
		}
		if m := unknownKey.FindStringSubmatch(rest); m != nil {
			rest = fmt.Sprintf("unknown key %q", m[1])
		}
		if line != "" {
			errs = append(errs, fmt.Errorf("%s:%s: %s", filename, line, rest))
		} else {
			errs = append(errs, fmt.Errorf("%s: %s", filename, rest))
		}
	}
	return errors.Join(errs...)
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// badScalar walks the YAML tree along type t and returns the first scalar whose
// UnmarshalText fails, with its line and field path.
func badScalar(n *yaml.Node, t reflect.Type, path string, depth int) (int, string, error) {
	if depth > 64 {
		return 0, "", nil
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return 0, "", nil
		}
		return badScalar(n.Content[0], t, path, depth+1)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		if n.Kind != yaml.ScalarNode {
			return 0, "", nil
		}
		err := reflect.New(t).Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(n.Value))
		return n.Line, path, err
	}
	switch {
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i].Value
			if ft, ok := fieldByKey(t, key); ok {
				if line, p, err := badScalar(n.Content[i+1], ft, path+"."+key, depth+1); err != nil {
					return line, p, err
				}
			}
		}
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for i, c := range n.Content {
			if line, p, err := badScalar(c, t.Elem(), path+"["+strconv.Itoa(i)+"]", depth+1); err != nil {
				return line, p, err
			}
		}
	}
	return 0, "", nil
}

// fieldByKey returns the type of struct t's field with YAML key key, looking into
// inline fields.
func fieldByKey(t reflect.Type, key string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if opts == "inline" && f.Type.Kind() == reflect.Struct {
			if ft, ok := fieldByKey(f.Type, key); ok {
				return ft, true
			}
			continue
		}
		if name == key {
			return f.Type, true
		}
	}
	return nil, false
}
