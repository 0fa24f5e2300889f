package fio

import (
	"fmt"
	"strconv"
	"strings"
)

// parseBSRange reads bsrange=MIN-MAX (or MIN:MAX): BS becomes MIN, BSRangeMax MAX.
func parseBSRange(j *Job, v string, kb int64) error {
	if strings.Contains(v, ",") {
		return fmt.Errorf("%q: separate read/write ranges (a comma) are not supported", v)
	}
	lo, hi, ok := strings.Cut(v, "-")
	if !ok {
		lo, hi, ok = strings.Cut(v, ":")
	}
	if !ok {
		return fmt.Errorf("%q is not a range (want MIN-MAX such as 4k-64k)", v)
	}
	a, err := ParseSizeBase(lo, kb)
	if err != nil {
		return err
	}
	b, err := ParseSizeBase(hi, kb)
	if err != nil {
		return err
	}
	j.BS, j.BSRangeMax, j.BSSplit = a, b, nil
	return nil
}

// parseBSSplit reads bssplit=SIZE/PCT:SIZE/PCT:…; entries without a percentage share what
// the others leave (fio's rule), the last of them taking any remainder of the division.
// BS becomes the smallest size.
func parseBSSplit(j *Job, v string, kb int64) error {
	if strings.Contains(v, ",") {
		return fmt.Errorf("%q: separate read/write splits (a comma) are not supported", v)
	}
	parts := strings.Split(v, ":")
	if len(parts) > 64 {
		return fmt.Errorf("has %d entries, more than 64", len(parts))
	}
	var split []BSShare
	var blank []int
	var sum int64
	for _, p := range parts {
		sz, pct, hasPct := strings.Cut(p, "/")
		n, err := ParseSizeBase(sz, kb)
		if err != nil {
			return err
		}
		sh := BSShare{Size: n}
		if hasPct {
			sh.Pct, err = strconv.ParseInt(strings.TrimSpace(pct), 10, 64)
			if err != nil || sh.Pct < 0 || sh.Pct > 100 {
				return fmt.Errorf("%q: %q is not a percentage in [0, 100]", p, pct)
			}
			sum += sh.Pct
		} else {
			blank = append(blank, len(split))
		}
		split = append(split, sh)
	}
	if sum > 100 {
		return fmt.Errorf("%q: percentages add up to %d, more than 100", v, sum)
	}
	if len(blank) > 0 {
		each := (100 - sum) / int64(len(blank))
		for _, i := range blank {
			split[i].Pct = each
		}
		split[blank[len(blank)-1]].Pct += (100 - sum) - each*int64(len(blank))
	}
	j.BS = split[0].Size
	for _, s := range split {
		j.BS = min(j.BS, s.Size)
	}
	j.BSSplit, j.BSRangeMax = split, 0
	return nil
}
