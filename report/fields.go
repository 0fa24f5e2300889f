package report

import (
	"bytes"
	"encoding/json"
)

// Field is one member of a JSON object written by Fields.
type Field struct {
	Key   string
	Value any
}

// Fields is a JSON object whose members keep the order they are listed in, for outputs
// whose field names depend on the run (one per --percentiles entry) yet should read in a
// fixed order: mean, stdev, min, the percentiles, max.
type Fields []Field

// MarshalJSON writes {"key": value, …} in order.
func (f Fields) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range f {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
