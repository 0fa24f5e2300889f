package powercut

import (
	"testing"
)

func TestM36ProfWordLine(t *testing.T) {
	rows := cutFlashCampaign(t, Matrix{Preset: "tiny", Variants: []string{"vanilla"}, PLP: []bool{false},
		Mappings: []string{"page"}}, []string{"word-line"}, 2)
	t.Log(rows[0].Met, rows[0].Cuts)
}
