//go:build js && wasm

package estimate

import (
	"fmt"
	"math"
	"strings"

	"github.com/dpsample/dpsample/core/mechanism"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/report"
	"github.com/dpsample/dpsample/wasm/ui/estimate/internal/timing"
	"github.com/dpsample/dpsample/wasm/ui/internal/kit"
)

// estimateWork turns the plan's work into seconds on this device.
func estimateWork(in *report.Input, pl mechanism.Plan) timing.WorkEstimate {
	value := pl.Method != "first-order"
	c := timing.PassCost(in.Kind, pl.D, value)
	w := max(1, pl.Workers)
	speed, measured := timing.WorkerSpeed(w)
	passes := pl.Work.Passes + pl.Work.Reference // the sampler's and the non-private reference fit's
	return timing.WorkEstimate{Seconds: passes * pl.Work.RowsTimesD * c / speed, Passes: passes, Rows: pl.N, D: pl.D,
		Workers: w, Fixed: pl.FixedWork, NsPerRow: c * 1e9, Speed: speed, Measured: measured,
		Linear: pl.Schedule != nil && pl.Curvature > 0} // DP-GD on a smooth loss: dpgd.RuleCapped
}

// workGate decides whether a run may start: nil to start; an error for a
// run over maxRunSeconds; errConfirm (with the message shown) the first time
// a run over confirmSeconds is asked for. alt is the same run's estimate
// without fixed work (NaN when it runs without).
func (v *estimateView) workGate(e timing.WorkEstimate, alt float64, key string) error {
	if math.IsNaN(e.Seconds) {
		return nil
	}
	without := ""
	if alt < e.Seconds/1.5 {
		without = fmt.Sprintf(" Without fixed work (untick “hide the run time”) it would take %s.", kit.About(alt))
	}
	switch {
	case e.Seconds > timing.MaxRunSeconds:
		v.workLine.SetTextContent(strings.TrimSpace(without))
		return fmt.Errorf("the table: this run would take %s on this device (%s), and the page stops at %d min: "+
			"sample the rows down to about %s, or lower ε", kit.About(e.Seconds), e.Describe(), timing.MaxRunSeconds/60, kit.Count(e.FittingRows(timing.MaxRunSeconds), "row"))
	case e.Seconds >= timing.ConfirmSeconds && v.confirmed != key:
		v.confirmed = key
		v.workLine.SetTextContent(fmt.Sprintf("This run will take %s on this device (%s). Press Run again to start it, "+
			"or sample the rows down (about %s run in a minute).%s", kit.About(e.Seconds), e.Describe(), kit.Count(e.FittingRows(60), "row"), without))
		return timing.ErrConfirm
	}
	v.confirmed = ""
	if e.Seconds >= timing.WarnSeconds {
		v.workLine.SetTextContent(fmt.Sprintf("This run takes %s on this device (%s).", kit.About(e.Seconds), e.Describe()))
	} else {
		v.workLine.SetTextContent("")
	}
	return nil
}

// workChanged drops a time estimate that no longer describes the form.
func (v *estimateView) workChanged() {
	v.workLine.SetTextContent("")
	v.confirmed = ""
}
