package form

import (
	"maps"
	"strings"
)

// Memory is what this browser remembers of the owner's declarations for
// files with the same column names (issue 23): the ranges and labels they
// typed, the categories typed or found, the ranges found privately and the
// release that found each (a private release: fine to keep; it counts only
// on the table whose ledger holds it), and the task they confirmed. Nothing
// in it is computed from the data's values except what a release found.
// The view stores it in localStorage under dataset.Profile.HeaderHash, as
// JSON of this shape (the stored shape of earlier versions).
type Memory struct {
	Ranges     map[string][2]string  `json:"ranges"`
	Positive   map[string]string     `json:"positive"`
	Categories *MemoryCats           `json:"categories,omitempty"`
	Private    map[string]FoundRange `json:"private,omitempty"`
	Task       string                `json:"task,omitempty"`
}

// MemoryCats are the text columns' lists: typed, and found privately.
type MemoryCats struct {
	Typed map[string]string    `json:"typed"`
	Found map[string]FoundCats `json:"found"`
}

// Memory is what the browser keeps for the CSV shown (nil when there is
// nothing to keep, or nothing to key it by: a file without a header, a
// built-in).
func (s State) Memory() *Memory {
	p := s.Table.Profile
	if s.Table.Builtin != nil || p == nil || p.HeaderHash == "" {
		return nil
	}
	m := &Memory{Ranges: map[string][2]string{}, Positive: map[string]string{}, Private: map[string]FoundRange{}, Task: s.Asked.TaskOK}
	cats := &MemoryCats{Typed: map[string]string{}, Found: map[string]FoundCats{}}
	for _, c := range p.Columns {
		d, ok := s.Choice.Ranges[c.Name]
		if ok && d.From != nil {
			m.Private[c.Name] = *d.From // this table's or another's: its release says which
		}
		if ok && !d.blank() {
			m.Ranges[c.Name] = [2]string{d.Lo, d.Hi}
		}
		if l := strings.TrimSpace(s.Choice.Positive[c.Name]); l != "" {
			m.Positive[c.Name] = l
		}
		if t, ok := s.Choice.Cats[c.Name]; ok && t != "" {
			cats.Typed[c.Name] = t
		}
		if f, ok := s.FoundCats[c.Name]; ok {
			cats.Found[c.Name] = f
		}
	}
	if len(cats.Typed)+len(cats.Found) > 0 {
		m.Categories = cats
	}
	if len(m.Private) == 0 {
		m.Private = nil
	}
	if len(m.Ranges)+len(m.Positive)+len(m.Private) == 0 && m.Categories == nil && m.Task == "" {
		return nil
	}
	return m
}

// recall fills the declarations from what the browser remembers for the
// CSV's column names. A range found privately comes back with its release:
// it is in the inputs only while the table's ledger holds that release
// (State.Range), edited or not.
func (s *State) recall(m *Memory) {
	s.FoundCats = map[string]FoundCats{}
	if m == nil {
		return
	}
	for c, r := range m.Ranges {
		s.Choice.Ranges[c] = Declared{Lo: r[0], Hi: r[1]}
	}
	for c, p := range m.Private {
		p := p
		d := s.Choice.Ranges[c]
		if _, ok := m.Ranges[c]; !ok {
			d.Lo, d.Hi = NiceRange(p.Col.Lo, p.Col.Hi, p.Col.Step)
		}
		d.From = &p
		s.Choice.Ranges[c] = d
	}
	maps.Copy(s.Choice.Positive, m.Positive)
	if m.Categories != nil {
		maps.Copy(s.Choice.Cats, m.Categories.Typed)
		maps.Copy(s.FoundCats, m.Categories.Found)
	}
	s.Asked.TaskOK = m.Task
}
