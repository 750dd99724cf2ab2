"""The public site's content: blog posts, the contact and enterprise forms, the test call."""
