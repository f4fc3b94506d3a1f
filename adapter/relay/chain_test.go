package relay

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestChainFirstTakeWins(t *testing.T) {
	var saw []string
	mk := func(name string, v Verdict) Interceptor {
		return func(m *Message) Verdict { saw = append(saw, name+":"+string(m.Raw)); return v }
	}
	v := chain([]Interceptor{
		mk("a", Pass),
		mk("b", Verdict{Replace: json.RawMessage(`{"b":1}`)}),
		mk("c", Verdict{Take: true}),
		mk("d", Pass),
	}, &Message{Raw: json.RawMessage(`{}`)})
	assert.True(t, v.Take)
	assert.Equal(t, []string{"a:{}", "b:{}", `c:{"b":1}`}, saw, "d must not be asked once c took the message")
}

func TestChainResponseHooksRunInOrder(t *testing.T) {
	var order []string
	hook := func(name string, out json.RawMessage) Interceptor {
		return func(*Message) Verdict {
			return Verdict{OnResponse: func(resp json.RawMessage) json.RawMessage {
				order = append(order, name+":"+string(resp))
				return out
			}}
		}
	}
	v := chain([]Interceptor{hook("a", nil), hook("b", json.RawMessage(`2`)), hook("c", nil)}, &Message{Raw: json.RawMessage(`{}`)})
	assert.False(t, v.Take)
	assert.Equal(t, `2`, string(v.OnResponse(json.RawMessage(`1`))))
	assert.Equal(t, []string{"a:1", "b:1", "c:2"}, order)

	v = chain([]Interceptor{hook("x", nil), hook("y", nil)}, &Message{Raw: json.RawMessage(`{}`)})
	assert.Nil(t, v.OnResponse(json.RawMessage(`1`)), "nobody changed the response: keep it")
}

func TestChainRunsEveryAfterInOrderUnlessTaken(t *testing.T) {
	var order []string
	after := func(name string) Interceptor {
		return func(*Message) Verdict {
			return Verdict{After: func() { order = append(order, name) }}
		}
	}
	v := chain([]Interceptor{after("a"), after("b")}, &Message{Raw: json.RawMessage(`{}`)})
	v.After()
	assert.Equal(t, []string{"a", "b"}, order)
	v = chain([]Interceptor{after("c"), func(*Message) Verdict { return Verdict{Take: true} }}, &Message{Raw: json.RawMessage(`{}`)})
	assert.Nil(t, v.After, "a taken message is not forwarded, so nothing runs after it")
}
