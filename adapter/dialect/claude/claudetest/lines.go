package claudetest

// Single is the form elicitation of one single-select question with its
// free-text companion field (question_0_custom), request id 41.
const Single = `{"jsonrpc":"2.0","id":41,"method":"elicitation/create","params":{"mode":"form","sessionId":"s1","toolCallId":"toolu_1","message":"Which database?","requestedSchema":{"type":"object","properties":{"question_0":{"type":"string","title":"Database","oneOf":[{"const":"Postgres","title":"Postgres","description":"relational"},{"const":"SQLite","title":"SQLite","description":"embedded"}]},"question_0_custom":{"type":"string","title":"Other","description":"Type your own answer (optional)."}}}}}`
