"""Six-card hands the Complot tests lay down (card ids of C6)."""

LEONARDS = ["leonard:amelie", "leonard:arthur", "leonard:clara", "leonard:emma",
            "leonard:sally", "leonard:sarah"]                     # six Léonard, 50 (C31)
EMPIRES = ["empires:henri", "empires:karl", "empires:marie", "empires:max", "empires:noe",
           "empires:sarah"]                                       # six Empires, 50 (C31)
ELYSEE_5 = ["etat-major:noe", "empires:sarah", "espions:max", "senechales:marie",
            "espions:arthur", "duron:clara"]                      # Élysée, 5 names (C40)
TWO_TRIOS = ["pompiers:camille", "pompiers:clara", "pompiers:etienne", "duron:jacquotte",
             "archange:gabrielle", "archange:igor"]              # two trios, or Plan Étaré
NOTHING = ["espions:franck", "alphas:naomie", "senechales:rose", "journalistes:marc",
           "duron:estelle", "leonard:sally"]                     # no combination at all
