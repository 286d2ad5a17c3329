package twentyq

import (
	"slices"
	"strings"

	"github.com/miti99bot/miti99bot/internal/app"
)

// things the bot may think of: everyday, widely known, unambiguous.
var things = []string{
	"a cat", "a dog", "an elephant", "a penguin", "a shark", "a butterfly", "a horse", "a snake", "an owl", "a dolphin",
	"a bicycle", "a car", "an airplane", "a train", "a boat", "a helicopter", "a skateboard", "a rocket",
	"a banana", "an apple", "a pizza", "bread", "rice", "chocolate", "coffee", "ice cream", "an egg", "a watermelon",
	"a guitar", "a piano", "a drum", "a violin",
	"a smartphone", "a laptop", "a television", "a camera", "a refrigerator", "a clock", "a lamp", "a key",
	"a chair", "a table", "a bed", "a mirror", "an umbrella", "a toothbrush", "a pencil", "a book", "scissors",
	"the Moon", "the Sun", "a volcano", "a river", "a mountain", "a desert", "the ocean", "a rainbow", "snow",
	"a tree", "a rose", "a cactus", "bamboo",
	"a hospital", "a school", "a library", "an airport", "a bridge", "a castle", "a lighthouse",
	"a doctor", "a teacher", "a firefighter", "a chef", "an astronaut",
	"a football", "a chess set", "a kite", "a balloon", "a candle", "a wallet", "a backpack", "a hat", "shoes",
}

// thingKey is a thing's text key: its name without the article, "thing.ice_cream".
func thingKey(thing string) string {
	for _, article := range []string{"a ", "an ", "the "} {
		if rest, ok := strings.CutPrefix(thing, article); ok {
			thing = rest
			break
		}
	}
	return "thing." + strings.ReplaceAll(strings.ToLower(thing), " ", "_")
}

// secretIn is the secret as w's language names it; one the list no longer
// has (a game stored by an older binary) reads as it was stored.
func secretIn(w app.Words, secret string) string {
	if !slices.Contains(things, secret) {
		return secret
	}
	return w.T(thingKey(secret))
}
