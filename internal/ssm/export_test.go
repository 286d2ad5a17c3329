package ssm

// Endpoint is where c sends its calls.
func Endpoint(c *Client) string { return c.endpoint }
