# machine layer
