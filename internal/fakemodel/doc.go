// Package fakemodel is a scripted model server on 127.0.0.1 for the live
// tests: it speaks the Anthropic Messages API and OpenAI-compatible chat
// completions, streaming or not, and makes the real agents call their
// question tool with the questions a test chooses. It records the tool
// results the agents send back, which is what the model would read: the
// proof that an answer made it all the way through.
package fakemodel
