package privacy

import (
	"fmt"
	"sync"

	"github.com/dpsample/dpsample/core/checks"
)

// Registry holds the ledgers of one module instance by key (the JS API's
// dpsample.ledger; the page keys them by dataset.TableKey, the SHA-256 of a
// table's canonical form).
type Registry struct {
	mu sync.Mutex
	m  map[string]*Ledger
}

// MaxKeyLength bounds a ledger key (a SHA-256 in hex is 64 characters).
const MaxKeyLength = 256

func checkKey(field, key string) error {
	if key == "" || len(key) > MaxKeyLength {
		return &checks.Error{Field: field, Rule: fmt.Sprintf("a non-empty string of at most %d bytes", MaxKeyLength), Got: fmt.Sprintf("%d bytes", len(key))}
	}
	return nil
}

// sameBudget reports an error naming prefix+"epsilon" or prefix+"delta"
// when (eps, delta) differs from the budget b of ledger key.
func sameBudget(prefix, key string, b LedgerBudget, eps, delta float64) error {
	for _, f := range []struct {
		name      string
		have, got float64
	}{{"epsilon", b.Epsilon, eps}, {"delta", b.Delta, delta}} {
		if f.got != f.have {
			return &checks.Error{Field: prefix + f.name, Rule: fmt.Sprintf("%s, the budget ledger %q was opened with (a budget is declared once; only a reset with a new budget changes it)", checks.Fmt(f.have), key), Got: checks.Fmt(f.got)}
		}
	}
	return nil
}

// Open returns the ledger of key, creating it with budget (ε, δ) if it does
// not exist. An existing ledger is returned unchanged when the budget is the
// same; a different budget is an error naming "epsilon" or "delta".
func (g *Registry) Open(key string, eps, delta float64) (*Ledger, error) {
	if err := checks.First(checkKey("key", key), checks.Epsilon("epsilon", eps), checks.Delta("delta", delta)); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if l, ok := g.m[key]; ok {
		if err := sameBudget("", key, l.budget, eps, delta); err != nil {
			return nil, err
		}
		return l, nil
	}
	l, err := NewLedger(eps, delta)
	if err != nil {
		return nil, err
	}
	if g.m == nil {
		g.m = map[string]*Ledger{}
	}
	g.m[key] = l
	return l, nil
}

// Get returns the ledger of key, or an error naming field when there is
// none.
func (g *Registry) Get(field, key string) (*Ledger, error) {
	if err := checkKey(field, key); err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	l, ok := g.m[key]
	if !ok {
		return nil, &checks.Error{Field: field, Rule: "the key of an open ledger (dpsample.ledger.open({key, epsilon, delta}) first)", Got: fmt.Sprintf("%q", key)}
	}
	return l, nil
}

// StateOf is l.State() with the key filled in.
func StateOf(key string, l *Ledger) LedgerState {
	st := l.State()
	st.Key = key
	return st
}

// Restore brings a stored state back (the page after a reload, the JS
// loader after its worker was replaced). The history is validated; the
// budget must equal an existing ledger's. Histories merge as a union by
// release ID, so restoring can add releases but never remove one: a stale
// copy cannot undo charges made since. (Only Reset removes releases.) Spent
// and Remaining in st are ignored and recomputed. Errors name "state.…".
func (g *Registry) Restore(st LedgerState) (*Ledger, error) {
	if err := checks.First(checkKey("state.key", st.Key),
		checks.Epsilon("state.budget.epsilon", st.Budget.Epsilon),
		checks.Delta("state.budget.delta", st.Budget.Delta)); err != nil {
		return nil, err
	}
	if len(st.History) > MaxHistory {
		return nil, checks.Errorf("state.history", "at most %d releases (got %d)", MaxHistory, len(st.History))
	}
	seen := map[string]bool{}
	for i, r := range st.History {
		name := fmt.Sprintf("state.history[%d].", i)
		if r.ID == "" || len(r.ID) > MaxKeyLength {
			return nil, &checks.Error{Field: name + "id", Rule: fmt.Sprintf("a non-empty string of at most %d bytes", MaxKeyLength), Got: fmt.Sprintf("%q", r.ID)}
		}
		if seen[r.ID] {
			return nil, &checks.Error{Field: name + "id", Rule: "unique within the history", Got: fmt.Sprintf("%q again", r.ID)}
		}
		seen[r.ID] = true
		if err := validateRelease(name, r); err != nil {
			return nil, err
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	l, ok := g.m[st.Key]
	if ok {
		if err := sameBudget("state.budget.", st.Key, l.budget, st.Budget.Epsilon, st.Budget.Delta); err != nil {
			return nil, err
		}
	} else {
		var err error
		if l, err = NewLedger(st.Budget.Epsilon, st.Budget.Delta); err != nil {
			return nil, err
		}
		if g.m == nil {
			g.m = map[string]*Ledger{}
		}
		g.m[st.Key] = l
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	have := map[string]bool{}
	for _, r := range l.history {
		have[r.ID] = true
	}
	var add []Release
	for _, r := range st.History {
		if !have[r.ID] {
			add = append(add, r)
		}
	}
	if len(l.history)+len(add) > MaxHistory {
		return nil, checks.Errorf("state.history", "at most %d releases together with the %d the ledger %q holds (got %d more)", MaxHistory, len(l.history), st.Key, len(add))
	}
	l.history = append(l.history, add...)
	return l, nil
}
