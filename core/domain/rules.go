package domain

// rules switches off parts of the post-processing, for the tests that show
// a statistical test fails without them; Describe uses the zero value.
type rules struct {
	noZero           bool // never pin an end at zero (a column's zero level is then found only when it clears the noise)
	noZeroGuess      bool // a hidden mode is a pair even when the zero bin stands as clear
	noPlausible      bool // a hidden mode is guessed among all bins
	noBeyond         bool // stage 2's rows past an end do not move it
	trimSingly       bool // stage 2 stops trimming at any bin reaching TrimLevel (the former rule)
	noCoarse         bool // no coarse fallback: a mode below τ_m stays the largest single bin
	fullMargin       bool // one stage's outer margin always a whole bin (the rule of 0.4)
	halfMargin       bool // one stage's outer margin half a bin (a factor 2) whatever the next bin's count below ⌈σ₁ + ½⌉ (the rule of 0.5)
	anyMode          bool // a mode or pair beyond the plausible window needs no cluster's strength (the rule of 0.5)
	clusterOnly      bool // a mode or pair beyond the plausible window needs a cluster's strength, whatever the window holds
	wideGuess        bool // a hidden mode is guessed within the plausible window, not the likely one
	noSignPrior      bool // a hidden mode's side is the one whose best pair is larger, by any margin
	noZeroOne        bool // the zero and unit bins are no candidate pair
	noTie            bool // a guess is its pair, whatever the pairs above it hold
	noHidden         bool // with one stage, rows the guess leaves unexplained do not move its end
	trimGuess        bool // stage 2 trims a guessed column's outer end like a found one's
	offsetOneStage   bool // with one stage, an offset column's inner end one bin inwards, not 0 (the former rule)
	labelShift       int  // added to τ_L (a broken threshold for the tests)
	noDescent        bool // stage 2's ends stay at its first level's bins (0.6.0's)
	noPlaced         bool // the tree refines the ends whatever rows the kept run leaves unplaced
	noFreeze         bool // the descent stops both ends when one end's zoom fails
	pastLevel0       bool // with a tree, Beyond tests the first level's counts past the window alone (σ₂)
	treeTrim2        bool // a tree's first level trims at Trim noise scales (0.6.0's), not TreeTrim
	zeroGrow         bool // with a tree, the zero bin alone puts 0 in the range from τ_g, not τ_c (0.6.0's)
	zeroTiny         bool // an end at 0 that counts rows past it moves to the smallest magnitudes past 0 (0.6.0's)
	noPlace          bool // the descent's last level keeps the zoom's ends (no conservative placing)
	treeAlone3       bool // a tree's first level stops the trim at a bin alone from TrimAlone noise scales (0.6.0's), not TreeTrimAlone
	flatQuartiles    bool // the quartiles stay at the level the ends were placed on, not refined down the tree (0.7.0's)
	marginAnyPlaced  bool // … and by Margin − 1 past a bin that looks empty whatever rows the kept run leaves unplaced
	fullLinearMargin bool // stage 2's first level widens every end by Margin bins, whatever the bin past it holds (0.7.0's)
}
