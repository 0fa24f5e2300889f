package firmware

// The built-in eviction policies (docs/design.md "Write buffer"), registered under their
// configuration names.
func init() {
	RegisterEvictionPolicy(string(Vanilla), EvictionPolicyDef{New: func(Spec) EvictionPolicy { return vanilla{} }})
	RegisterEvictionPolicy(string(FastDrain), EvictionPolicyDef{New: func(Spec) EvictionPolicy { return &fastDrain{} }})
	RegisterEvictionPolicy(string(Oracle), EvictionPolicyDef{Unbounded: true, New: func(Spec) EvictionPolicy { return oracle{} }})
	RegisterEvictionPolicy(string(OracleBG), EvictionPolicyDef{Unbounded: true, New: func(Spec) EvictionPolicy { return oracle{background: true} }})
}

// vanilla evicts on demand only (docs/design.md "Decisions after the first measurements"): in
// the foreground while a write waits for room or a flush for the flash, otherwise not at
// all.
type vanilla struct{}

func (vanilla) Decide(v *BufferView) Decision {
	if v.Urgent() {
		return Decision{Mode: EvictForeground}
	}
	return Decision{}
}

// fastDrain is FD-Buf: foreground while the announced victimization is predicted to
// overflow the buffer (predicted occupancy at or above the high watermark), and from then
// on until the occupancy is back under the low watermark; background otherwise, to the dies
// idle of host work only (the paper's "we evict a limited set of pages to the flash dies in
// idle", activity.go). Its switches go to the mode log.
type fastDrain struct {
	fg bool
}

func (p *fastDrain) Decide(v *BufferView) Decision {
	capP := float64(v.Capacity)
	occ := float64(v.Occupancy)
	predicted := float64(v.Predicted)
	wm := v.Watermarks
	fg := predicted >= wm.High*capP || (p.fg && occ >= wm.Low*capP)
	if fg != p.fg {
		p.fg = fg
		v.LogSwitch(fg)
	}
	if p.fg || v.Urgent() {
		return Decision{Mode: EvictForeground}
	}
	return Decision{Mode: EvictBackground, IdleDies: true}
}

// oracle is the unbounded buffer: it evicts in the foreground only for a flush that waits
// for the flash; with background set (oracle-bg) it drains in the background otherwise, to
// every die without host reads queued or in flight (no idle-die rule: the control).
type oracle struct {
	background bool
}

func (p oracle) Decide(v *BufferView) Decision {
	switch {
	case v.Flushes > 0:
		return Decision{Mode: EvictForeground}
	case p.background:
		return Decision{Mode: EvictBackground}
	}
	return Decision{}
}
