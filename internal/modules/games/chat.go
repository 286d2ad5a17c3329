package games

// ChatState is a game module's Module.ChatState: what it keys by chat (the
// running game, GameKey; the record, Key), which the engine moves to a
// supergroup's new id, a game the supergroup began since kept, or forgets
// with a chat that is gone.
var ChatState = []string{"game:{chat}", "stats:{chat}"}
