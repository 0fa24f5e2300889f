package sim

import "testing"

func TestSmoke(t *testing.T) {
	e := NewEngine()
	q := NewQueue[int]("q", 2)
	var got []Time
	e.Spawn("prod", func(p *Proc) {
		for i := 0; i < 5; i++ {
			p.Sleep(10 * Nanosecond)
			q.Send(p, i)
		}
	})
	e.Spawn("cons", func(p *Proc) {
		for i := 0; i < 5; i++ {
			v := q.Recv(p)
			if v != i {
				t.Errorf("got %d want %d", v, i)
			}
			got = append(got, p.Now())
		}
	})
	e.Run()
	if len(got) != 5 || got[4] != 50*Nanosecond {
		t.Fatalf("got %v", got)
	}
}
