package dataset

import (
	"fmt"
	"strings"
	"testing"
)

// surveyLike is a generated table shaped like a survey's: an exercise
// column with the levels Freq, Some and None (issue 51 item 3), a number,
// and a smoker target; row 7 has a true missing cell (NA) in exercise.
func surveyLike() string {
	var b strings.Builder
	b.WriteString("pulse,exercise,smokes\n")
	for i := range 30 {
		ex := []string{"Freq", "Some", "None"}[i%3]
		if i == 6 {
			ex = "NA"
		}
		fmt.Fprintf(&b, "%d,%s,%s\n", 60+i, ex, []string{"yes", "no"}[i%2])
	}
	return b.String()
}

// TestNoneIsALevel (failing-first: on main categoryCodes refused "None"): a
// token named in a text feature's category list is that level — coded in
// its column, never a missing cell (no row dropped for it, none reported) —
// while a token not in the list ("NA") is still missing.
func TestNoneIsALevel(t *testing.T) {
	cats := map[string][]string{"exercise": {"Freq", "Some", "None"}}
	tab, err := Parse(surveyLike(), Options{Target: "smokes", Positive: "yes", Drop: "missing", Categories: cats})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Dropped != 1 || len(tab.X) != 29 {
		t.Errorf("dropped %d of 30 rows; want only the NA row", tab.Dropped)
	}
	if tab.Columns[3] != "exercise=None" || tab.X[2][3] != 1 || tab.X[2][1] != 0 {
		t.Errorf("columns %v, row 3 %v; want None coded in its own column", tab.Columns, tab.X[2])
	}
	fill, err := Parse(surveyLike(), Options{Target: "smokes", Positive: "yes", Missing: MissingFill, Categories: cats})
	if err != nil {
		t.Fatal(err)
	}
	if fill.MissingCells != 1 || fill.X[6][1]+fill.X[6][2]+fill.X[6][3] != 0 {
		t.Errorf("fill: %d missing cells, row 7 %v; want only NA, coded as zeros", fill.MissingCells, fill.X[6])
	}
	// Without the list, "None" is a missing cell, as before.
	if _, err := Parse(surveyLike(), Options{Target: "smokes", Positive: "yes", Features: []string{"pulse"}}); err != nil {
		t.Errorf("exercise not a feature: %v", err)
	}
	if _, err := Parse("a,b\n1,None\n2,3\n", Options{}); err == nil || !strings.Contains(err.Error(), "missing cells in row 1") {
		t.Errorf("None in a numeric column: %v; want a missing cell", err)
	}
}

// TestTargetLevels: in the target column a declared positive label that is
// a token, or a token declared in levels, is a label — coded +1 or −1 —
// never a missing target; errors name levels.<column>.
func TestTargetLevels(t *testing.T) {
	csv := "pulse,exercise\n60,Freq\n61,None\n62,Some\n63,NA\n"
	pos, err := Parse(csv, Options{Target: "exercise", Positive: "None", Missing: MissingFill})
	if err != nil {
		t.Fatal(err)
	}
	if pos.Y[1] != 1 || pos.Y[0] != -1 || pos.MissingTargets != 1 {
		t.Errorf("positive None: y %v, %d missing; want +1 in row 2 and NA missing", pos.Y, pos.MissingTargets)
	}
	rest, err := Parse(csv, Options{Target: "exercise", Positive: "Freq", Missing: MissingFill, Levels: map[string][]string{"exercise": {"None"}}})
	if err != nil {
		t.Fatal(err)
	}
	if rest.Y[1] != -1 || rest.MissingTargets != 1 {
		t.Errorf("None a level: y %v, %d missing; want −1 in row 2", rest.Y, rest.MissingTargets)
	}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Levels: map[string][]string{"nope": {"None"}}}, "levels.nope must be a column"},
		{Options{Levels: map[string][]string{"exercise": {" "}}}, "levels.exercise must be labels that are not empty"},
		{Options{Target: "exercise", Positive: " "}, "positive must"},
	} {
		if _, err := Parse(csv, c.opt); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v; want %q", c.opt, err, c.want)
		}
	}
}

// TestReadCellsTokensAreCandidates (failing-first: on main ReadCells left
// every token out): describe({csv}) counts a non-empty missing token as a
// label candidate — the rule is the same in every column, so no row decides
// it — and so can find "None" privately; an empty cell is in no bin.
func TestReadCellsTokensAreCandidates(t *testing.T) {
	cols, n, err := ReadCells(surveyLike()+"90,,yes\n", HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	ex := cols[1]
	count := map[string]int{}
	for _, l := range ex.Labels {
		count[l]++
	}
	if n != 31 || count["None"] != 10 || count["NA"] != 1 || len(ex.Labels) != 30 {
		t.Errorf("n = %d, exercise's labels %v; want None ×10, NA ×1, the empty cell in none", n, count)
	}
}

// TestProfileMissingTokens (issue 51 item 3): the profile says which token
// counted as missing in which column, and in a text column asks whether it
// is a level.
func TestProfileMissingTokens(t *testing.T) {
	p, err := ProfileText(surveyLike()+"90,,yes\n", HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := p.Column("exercise")
	if c.Missing != 12 || len(c.MissingTokens) != 2 || c.MissingTokens[0] != (LabelCount{"NA", 1}) || c.MissingTokens[1] != (LabelCount{"None", 10}) {
		t.Errorf("exercise: %d missing, tokens %v", c.Missing, c.MissingTokens)
	}
	found := false
	for _, pr := range p.Problems {
		found = found || pr.Column == "exercise" && strings.Contains(pr.Text, `"None"`) && !pr.Blocking
	}
	if !found {
		t.Errorf("no problem names None in exercise: %+v", p.Problems)
	}
	// "." and "?" are markers, never words: listed, not warned about (penguins' sex has one ".").
	q, err := ProfileText("sex,w\nMALE,1\n.,2\nFEMALE,3\n?,4\n", HeaderAuto)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := q.Column("sex"); len(c.MissingTokens) != 2 || len(q.Problems) != 0 {
		t.Errorf("sex: tokens %v, problems %+v", c.MissingTokens, q.Problems)
	}
}
