package app

// Membership is what Telegram says a user is in a group now
// (getChatMember): one question, asked both to keep a group's board to
// its members and to let a group's admin act for the group.
type Membership int

const (
	// NotMember: left, removed, banned, or restricted after leaving.
	NotMember Membership = iota
	// Member: a member, or restricted while still one.
	Member
	// Admin: the group's creator or one of its administrators.
	Admin
)

// In reports whether the user is in the group (an admin is).
func (m Membership) In() bool { return m >= Member }
