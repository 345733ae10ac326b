# trace layer
