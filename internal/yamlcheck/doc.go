// Package yamlcheck checks a YAML document against the Go type it is about to be decoded
// into, for what the decoder (go.yaml.in/yaml/v3) accepts without a word: an unknown key
// (reported with its full path and the nearest known keys), a null value — "flash: ~",
// "channels:" with nothing after it — which leaves the field as it was (the preset's value,
// silently), a number with a fraction given for an integer field ("channels: 3.7",
// which the decoder truncates to 3), and .nan or .inf for a number (NaN passes every
// range check). Every configuration decoder of the module that decodes
// into typed structs (platforms, hostos/apps, hostos/uflip plan specs) runs it first, so the
// same mistake gets the same message everywhere.
package yamlcheck
