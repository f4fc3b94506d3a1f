package desk

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/askbridge/askbridge/permission"
)

// wireQuestion is a question as OpenCode's routes show it.
type wireQuestion struct {
	Question string              `json:"question"`
	Header   string              `json:"header"`
	Options  []permission.Option `json:"options"`
	Multiple bool                `json:"multiple"`
}

// wirePending is a pending request as GET /question lists it.
type wirePending struct {
	ID        string         `json:"id"`
	SessionID string         `json:"sessionID"`
	Questions []wireQuestion `json:"questions"`
	Tool      struct {
		MessageID string `json:"messageID"`
		CallID    string `json:"callID"`
	} `json:"tool"`
	Round int `json:"round"`
}

func toWire(p permission.Pending) wirePending {
	w := wirePending{ID: p.ID, SessionID: p.SessionID, Round: p.Round, Questions: []wireQuestion{}}
	w.Tool.CallID = p.ToolCallID
	for _, q := range p.Questions {
		w.Questions = append(w.Questions, wireQuestion{Question: q.Question, Header: q.Header, Options: q.Options, Multiple: q.MultiSelect})
	}
	return w
}

func (s *Server) listQuestions(w http.ResponseWriter, r *http.Request) {
	out := []wirePending{}
	for _, p := range s.board.List() {
		out = append(out, toWire(p))
	}
	writeJSON(w, http.StatusOK, out)
}

// reply: {"answers":[["label"],["a","b"]]}, one array per question.
func (s *Server) reply(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Answers [][]string `json:"answers"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.answer(w, r.PathValue("id"), "", body.Answers, true)
}

func (s *Server) reject(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if err := s.board.CancelFrom(id, permission.SourceDesk, "rejected at the answer desk"); err != nil {
		boardError(w, err)
		return
	}
	s.logger.Info("desk: question rejected", "id", id)
	writeJSON(w, http.StatusOK, true)
}

// taskAnswer: {"session_id","question_id","answer": "label" | ["a","b"] | "free text"}
// for a set of one question.
func (s *Server) taskAnswer(w http.ResponseWriter, r *http.Request) {
	var body struct {
		SessionID  string          `json:"session_id"`
		QuestionID string          `json:"question_id"`
		Answer     json.RawMessage `json:"answer"`
	}
	if err := decodeBody(r, &body); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	var list []string
	var one string
	switch {
	case json.Unmarshal(body.Answer, &one) == nil:
		list = []string{one}
	case json.Unmarshal(body.Answer, &list) == nil:
	default:
		writeError(w, http.StatusBadRequest, `answer: want a label, a list of labels, or free text`)
		return
	}
	if _, known := s.board.History(body.SessionID); !known {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no session %q", body.SessionID))
		return
	}
	if !s.answer(w, body.QuestionID, body.SessionID, [][]string{list}, false) {
		return
	}
}

// answer checks answers against set id and resolves it; it writes the
// response and reports whether the answer was taken.
func (s *Server) answer(w http.ResponseWriter, id, session string, answers [][]string, opencode bool) bool {
	p, ok := s.board.Get(id)
	if !ok || (session != "" && p.SessionID != session) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no question %q", id))
		return false
	}
	if p.State != permission.StatePending {
		writeError(w, http.StatusConflict, fmt.Sprintf("question %q is %s already", id, p.State))
		return false
	}
	if len(answers) != len(p.Questions) {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("answers: want %d (one per question), got %d", len(p.Questions), len(answers)))
		return false
	}
	res, problem := s.result(p, answers)
	if problem != "" {
		writeError(w, http.StatusBadRequest, problem)
		return false
	}
	res.Source = permission.SourceDesk
	if err := s.board.Answer(id, res); err != nil {
		boardError(w, err)
		return false
	}
	s.logger.Info("desk: question answered", "id", id)
	if opencode {
		writeJSON(w, http.StatusOK, true)
	} else {
		writeJSON(w, http.StatusOK, map[string]any{"success": true, "message": "Answer recorded for " + id})
	}
	return true
}

// result turns answers into a Result: labels among the options are picks,
// anything else typed text (refused with NoCustom).
func (s *Server) result(p permission.Pending, answers [][]string) (permission.Result, string) {
	var res permission.Result
	for i, q := range p.Questions {
		vals := answers[i]
		path := fmt.Sprintf("answers[%d]", i)
		if len(vals) == 0 {
			return res, path + ": empty: pick at least one option"
		}
		if !q.MultiSelect && len(vals) > 1 {
			return res, fmt.Sprintf("%s: %q takes one answer", path, q.Question)
		}
		limit := MaxAnswer
		if q.MultiSelect {
			limit = MaxMultiAnswer
		}
		if n := utf8.RuneCountInString(strings.Join(vals, ", ")); n > limit {
			return res, fmt.Sprintf("%s: %d characters, the limit is %d", path, n, limit)
		}
		var a permission.Answer
		for _, v := range vals {
			v = strings.TrimSpace(v)
			switch {
			case v == "":
				return res, path + ": an empty answer"
			case slices.ContainsFunc(q.Options, func(o permission.Option) bool { return o.Label == v }):
				if !slices.Contains(a.Labels, v) {
					a.Labels = append(a.Labels, v)
				}
			case s.opts.NoCustom:
				return res, fmt.Sprintf("%s: %q is not an option of %q", path, v, q.Question)
			case a.Other:
				return res, path + ": one typed answer per question"
			default:
				a.Other, a.Custom = true, v
			}
		}
		// Picks in option order, as every other front end gives them.
		slices.SortFunc(a.Labels, func(x, y string) int {
			return slices.IndexFunc(q.Options, func(o permission.Option) bool { return o.Label == x }) -
				slices.IndexFunc(q.Options, func(o permission.Option) bool { return o.Label == y })
		})
		res.Answers = append(res.Answers, permission.Answered{Question: q, Answer: a, Index: i, Path: fmt.Sprintf("questions[%d]", i)})
	}
	return res, ""
}

// history: the rounds asked in a session, numbered, with their outcomes.
func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	sets, ok := s.board.History(id)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no session %q", id))
		return
	}
	type round struct {
		Round     int               `json:"round"`
		ID        string            `json:"id"`
		State     string            `json:"state"`
		Questions []wireQuestion    `json:"questions"`
		Answers   map[string]string `json:"answers,omitempty"`
	}
	out := struct {
		SessionID string  `json:"sessionID"`
		Rounds    []round `json:"rounds"`
	}{SessionID: id, Rounds: []round{}}
	for _, p := range sets {
		wp := toWire(p)
		rd := round{Round: p.Round, ID: p.ID, State: p.State, Questions: wp.Questions}
		if p.Result != nil && !p.Result.Cancelled {
			rd.Answers = map[string]string{}
			for _, a := range p.Result.Answers {
				rd.Answers[a.Question.Question] = a.Answer.Text()
			}
		}
		out.Rounds = append(out.Rounds, rd)
	}
	writeJSON(w, http.StatusOK, out)
}

// events streams the board's changes as server-sent events.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming unsupported")
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": askbridge desk\n\n")
	flusher.Flush()
	for ev := range s.board.Subscribe(r.Context()) {
		b, _ := json.Marshal(map[string]any{"type": ev.Type, "properties": toWire(ev.Pending), "state": ev.Pending.State})
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.Type, b)
		flusher.Flush()
	}
}

func decodeBody(r *http.Request, v any) error {
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("reading the body: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("body: invalid JSON: %v", err)
	}
	return nil
}
