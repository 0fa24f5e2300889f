package testtier

import (
	"testing"
)

// TestLongFollowsTheEnvironment checks the rule: only the exact value "1" turns the long
// tier on (so FASTDRAIN_LONG=0 or an empty value leave it off), and -short always wins.
func TestLongFollowsTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{{"", false}, {"0", false}, {"yes", false}, {"1", !testing.Short()}} {
		t.Setenv(Env, tc.value)
		if got := Long(); got != tc.want {
			t.Errorf("%s=%q: Long() = %v, want %v", Env, tc.value, got, tc.want)
		}
	}
}

// TestSkipUnlessLong runs the helper in a subtest and checks it skips exactly when Long is
// false.
func TestSkipUnlessLong(t *testing.T) {
	for _, value := range []string{"", "1"} {
		t.Setenv(Env, value)
		ran := false
		t.Run("tier="+value, func(t *testing.T) {
			SkipUnlessLong(t, "test of the helper")
			ran = true
		})
		if ran != Long() {
			t.Errorf("%s=%q: the body ran = %v, Long() = %v", Env, value, ran, Long())
		}
	}
}
