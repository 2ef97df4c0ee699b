// Package form is the estimate element's decisions (issue 55), apart from
// their showing, in the manner of the Elm architecture: the form is a value,
// State, and one function, Update, takes a state and an event to the next
// state and the one Action the page carries out next. Package estimate (the
// view) reads the DOM into events, carries out the actions — parsing, timing,
// the worker's calls — and renders the state; it decides nothing. This
// package has no syscall/js: it builds and is tested natively.
//
// The state holds what the page knows of the table (a built-in's
// declarations, or a CSV's profile, read on the owner's device — never the
// rows' values), the person's choices (task, target, features, declared
// ranges and labels, ε, δ and the bounds), what was found privately and the
// release that found it (FoundRange, FoundCats), the table's ledger as last
// seen, and the questions already answered (Asked).
//
// Events are the person's acts (Pressed, FindPressed, the field edits) and
// the answers of the page's work (Prepared, Timed, Found, Ran). Actions are:
//
//   - Ask or Refuse: one message naming one field, which the page focuses;
//     nothing is spent;
//   - Prepare: parse the table for the run and open its budget (nothing
//     spent), answered by Prepared;
//   - Time: estimate the run's seconds on this device, answered by Timed;
//   - Find: spend the stated amount on describe's release of the stated
//     columns, answered by Found;
//   - Run: spend the stated amount on the stated model, answered by Ran;
//   - Show: show the result; Done: end the press with a status line.
//
// What the page charges is decided only here: Find and Run are the only
// actions that spend, and a press reaches them only after every check that
// can fail without the data's release has passed. A press of Run goes:
//
//  1. the form, read without the data (Pressed): the table is there, a
//     target is chosen, the task suggested from the file is confirmed, the
//     positive label is declared and codes both classes, every typed range,
//     list and number is valid, the budget can be read;
//  2. Prepare → Prepared: the table parses for the run (the rows' own
//     errors: a bad cell, a ragged row), its budget is open; the blank
//     ranges and categories are those the table's ledger does not hold; a
//     table below the release's floor is told so; the run's plan is valid
//     at the largest width the found categories could give it; the budget
//     holds the ranges' release and the model's together;
//  3. Time → Timed: a run over the page's limit is refused, a long one
//     waits for a second press;
//  4. Find → Found (only when something is blank), then Prepare again when
//     a text feature's categories were found (its columns are coded from
//     them);
//  5. Run → Ran → Show.
//
// The properties tested over generated states and event sequences
// (form_test.go, property_test.go): no sequence charges and then refuses for
// a reason that was checkable before the charge; every refusal names exactly
// one field, and the page focuses it; nothing is charged for a column nobody
// chose as the target; a found range or category is used only on the table
// whose ledger holds its release; a second press never pays for ranges or
// categories twice; every press that charges ends in a result or a message.
package form
