package sim

// Sample is one point of a time series.
type Sample struct {
	At    Time
	Value int64
}

// Series is a named sequence of integer samples taken at a fixed simulated interval by a
// Sampler.
type Series struct {
	Name    string
	Samples []Sample
	probe   func() int64
}

// Sampler samples a set of probes every Interval of simulated time, in PhaseStats so each
// sample sees the state after all model activity at that time. Its events are daemons: they
// never keep a run going by themselves.
type Sampler struct {
	eng      *Engine
	Interval Time
	series   []*Series
	started  bool
}

// NewSampler returns a sampler on eng that samples every interval (which must be positive).
func NewSampler(eng *Engine, interval Time) *Sampler {
	if interval <= 0 {
		panic("sim: sampler interval must be positive")
	}
	return &Sampler{eng: eng, Interval: interval}
}

// Track adds a series whose value probe returns; sampling starts at the current time on the
// first call.
func (s *Sampler) Track(name string, probe func() int64) *Series {
	ser := &Series{Name: name, probe: probe}
	s.series = append(s.series, ser)
	if !s.started {
		s.started = true
		s.eng.ScheduleDaemon(s.eng.Now(), PhaseStats, s, nil, 0)
	}
	return ser
}

// Series returns the tracked series in the order they were added.
func (s *Sampler) Series() []*Series { return s.series }

// HandleEvent takes one sample of every series and schedules the next; it implements Handler.
func (s *Sampler) HandleEvent(ev *Event) {
	for _, ser := range s.series {
		ser.Samples = append(ser.Samples, Sample{At: ev.Time, Value: ser.probe()})
	}
	s.eng.ScheduleDaemon(ev.Time+s.Interval, PhaseStats, s, nil, 0)
}
