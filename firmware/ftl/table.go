package ftl

// table is a table of 32-bit entries stored complemented (bitwise NOT), so that memory
// fresh from make reads as all ones: every mapping entry NoPage and every reverse-map entry
// pFree. A new FTL then needs no pass to fill its tables — on a 400 GB device that pass
// wrote 780 MB and took a third of the machine's build — and the parts of the tables no
// write reaches are never touched.
type table[T ~uint32] []T

// at returns entry i.
func (t table[T]) at(i int64) T { return ^t[i] }

// put sets entry i to v.
func (t table[T]) put(i int64, v T) { t[i] = ^v }
