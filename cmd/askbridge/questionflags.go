package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/askbridge/askbridge/adapter"
	"github.com/askbridge/askbridge/route/hub"
)

// minAnswerEnv sets --min-answer-time's default in milliseconds; 0 turns
// the guard off, for a scripted client that answers on purpose.
const minAnswerEnv = "ASKBRIDGE_MIN_ANSWER_MS"

// questionFlags are the flags that say where and how questions are asked.
func (o *proxyOptions) questionFlags(fs *flag.FlagSet) {
	fs.Var(&o.questions, "questions", "where the agent's questions are asked: client (the editor, and the desk, hub and notifiers when they run; the first answer wins), mirror (the same, said explicitly), or desk (the desk, hub and notifiers only, never the editor; for headless clients and bots)")
	o.minAnswerTime = adapter.DefaultMinAnswerTime
	if v, ok := os.LookupEnv(minAnswerEnv); ok {
		ms, err := strconv.Atoi(v)
		if err != nil || ms < 0 {
			o.minAnswerErr = fmt.Errorf("%s=%q: want a number of milliseconds, 0 or more", minAnswerEnv, v)
		} else {
			o.minAnswerTime = time.Duration(ms) * time.Millisecond
		}
	}
	fs.DurationVar(&o.minAnswerTime, "min-answer-time", o.minAnswerTime, "an answer from the editor faster than this is its automatic policy (an auto-approving client), not the user's: the question goes to the desk or hub, else the model is told no person saw it; 0 turns this off for a client that answers on purpose (also "+minAnswerEnv+")")
}

// checkQuestions reports question flags that make no sense.
func (o *proxyOptions) checkQuestions() error {
	switch {
	case o.minAnswerErr != nil:
		return o.minAnswerErr
	case o.minAnswerTime < 0:
		return fmt.Errorf("--min-answer-time %s: must not be negative", o.minAnswerTime)
	case o.questions == adapter.QuestionsDesk && o.desk == "" && (o.hub == "auto" || o.hub == "off"):
		return deskOnly("questions", o.hub)
	}
	var r adapter.Render
	if err := r.Set(o.render); err != nil {
		return fmt.Errorf("--render %w", err)
	}
	return nil
}

// deskOnly is why --FLAG desk is refused without --desk or a --hub socket:
// nothing is sure to answer. Under --hub auto it names the socket it would
// report on (hub.SocketPath), which --hub takes to wait for that hub.
func deskOnly(flag, hubFlag string) error {
	if p := hub.SocketPath(); hubFlag == "auto" && filepath.IsAbs(p) {
		return fmt.Errorf("--%s desk: nothing is sure to answer them: --hub auto reports to a hub only while one runs at %s; add --hub %s (that hub) or --desk ADDR, or use --%s mirror", flag, p, p, flag)
	}
	return fmt.Errorf("--%s desk: nothing could answer them; add --desk ADDR or --hub SOCKET (or use --%s mirror)", flag, flag)
}
