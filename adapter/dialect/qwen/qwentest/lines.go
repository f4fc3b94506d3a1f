package qwentest

// Ask is Qwen's permission request carrying two questions, the second
// multi-select, request id 77.
const Ask = `{"jsonrpc":"2.0","id":77,"method":"session/request_permission","params":{"sessionId":"s1","options":[{"optionId":"proceed_once","name":"Submit","kind":"allow_once"},{"optionId":"cancel","name":"Cancel","kind":"reject_once"}],"toolCall":{"toolCallId":"call_q","title":"ask_user_question","kind":"other","rawInput":{"questions":[{"question":"Which database?","header":"Database","options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"embedded"}],"multiSelect":false},{"question":"Which languages?","header":"Languages","options":[{"label":"Go","description":""},{"label":"Rust","description":""},{"label":"Python","description":""}],"multiSelect":true}]}}}}`
