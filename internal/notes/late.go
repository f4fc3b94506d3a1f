package notes

import (
	"fmt"
	"time"
)

// What a set's card says while its answer is for the agent's next prompt:
// an answer given after the agent stopped waiting for it. The hub reads
// these notes too: a card whose note says so stays answerable on the hub
// when its askbridge leaves (CardLeft then), and its answer is put in the
// store for the session's next prompt.
const (
	CardNextPrompt = "The agent stopped waiting; your answer will reach it with your next prompt."
	CardPrompt     = "The agent stopped waiting; your answer will be sent to it as a prompt of its own."
	CardLeft       = "The agent's askbridge has stopped; your answer will reach the agent with the session's next prompt."
)

// AnswerableLate reports whether a card's note says its answer is for the
// agent's next prompt.
func AnswerableLate(note string) bool {
	return note == CardNextPrompt || note == CardPrompt || note == CardLeft
}

// LateLine is one late answer as the model reads it, under the heading
// the bridge gives late answers: whoever writes it (the askbridge that
// asked, or the hub once that one left), the agent reads it the same way.
func LateLine(asked time.Time, answer string) string {
	return fmt.Sprintf("(asked at %s) %s", asked.Format("15:04:05"), answer)
}
